// Hook points. The kernel declares none: a contract declares the points it owns and their
// payloads by merging into `HookPayloads`, e.g.
//
//   declare module '@agentd/sdk' { interface HookPayloads { 'chat:request': { request: ChatRequest } } }
//
// so `hooks.on('chat:request', p => ...)` is typed. At run time a hook point exists once a
// plugin declares it (`hooks.declare`); naming an undeclared point throws at registration,
// not silently at run time. Handlers run in registration order; each may return a
// replacement payload (or nothing to keep it).
import { Errors } from './errors.ts'

/** Hook point -> its payload. Empty here; each contract adds its points. */
// eslint-disable-next-line @typescript-eslint/no-empty-interface -- filled by declaration merging
export interface HookPayloads {}

export type HookPoint = keyof HookPayloads & string
export type HookHandler<P> = (payload: P) => Promise<P | undefined | void> | P | undefined | void

export class Hooks {
  readonly #declared = new Set<string>()
  readonly #handlers = new Map<string, Array<HookHandler<unknown>>>()

  /** Makes points known; the plugin that runs a point declares it (declaring twice is fine). */
  declare (...names: HookPoint[]): void { for (const n of names) this.#declared.add(n) }

  get declared (): string[] { return [...this.#declared] }

  #assertKnown (name: string): void {
    if (!this.#declared.has(name)) throw new Errors.UNKNOWN_HOOK(name, this.declared.join(', ') || 'none')
  }

  /**
   * Subscribes to a point. Subscribing before the owner declared it is allowed while the
   * generation is being built (plugin order is not the subscriber's business); see
   * `undeclared()`.
   */
  on<K extends HookPoint> (name: K, handler: HookHandler<HookPayloads[K]>): void {
    const list = this.#handlers.get(name) ?? []
    list.push(handler as HookHandler<unknown>)
    this.#handlers.set(name, list)
  }

  /**
   * Subscriptions to points no plugin declared, asked once the generation is built: the
   * kernel warns about each (a typo, or the owning plugin is disabled), since such a
   * handler never runs.
   */
  undeclared (): string[] { return [...this.#handlers.keys()].filter(n => !this.#declared.has(n)) }

  has (name: HookPoint): boolean {
    return (this.#handlers.get(name)?.length ?? 0) > 0
  }

  /** Runs every handler in order; a handler's non-undefined return replaces the payload. */
  async run<K extends HookPoint> (name: K, payload: HookPayloads[K]): Promise<HookPayloads[K]> {
    this.#assertKnown(name)
    let current = payload
    for (const handler of this.#handlers.get(name) ?? []) {
      const next = await handler(current)
      if (next !== undefined) current = next as HookPayloads[K]
    }
    return current
  }
}
