// The registry: one typed map per capability kind. The kernel knows no kind by name:
// a contract declares its kind by merging into `Capabilities`, e.g.
//
//   declare module '@agentd/sdk' { interface Capabilities { providers: Provider } }
//
// and `app.registry.providers` is then a CapabilityMap<Provider>, created on first use.
// Plugins fill the maps while a generation is being built; once the generation is ready
// every map is frozen, so nothing changes under a request.
import { Errors } from './errors.ts'

/** Capability kind -> what its map holds. Empty here; each contract adds its kind. */
// eslint-disable-next-line @typescript-eslint/no-empty-interface -- filled by declaration merging
export interface Capabilities {}

export class CapabilityMap<T> {
  readonly kind: string
  readonly #items = new Map<string, T>()
  #frozen = false

  constructor (kind: string) { this.kind = kind }

  add (name: string, impl: T): void {
    if (this.#frozen) throw new Error(`The ${this.kind} registry is frozen once the server is ready; add "${name}" while your plugin registers.`)
    if (this.#items.has(name)) throw new Errors.REGISTRY_DUPLICATE(this.kind, name)
    this.#items.set(name, impl)
  }

  /** Throws a 404-class error that lists what is available. */
  get (name: string): T {
    const item = this.#items.get(name)
    if (item === undefined) throw new Errors.REGISTRY_MISSING(this.kind, name, this.names().join(', ') || 'none')
    return item
  }

  find (name: string): T | undefined { return this.#items.get(name) }
  has (name: string): boolean { return this.#items.has(name) }
  names (): string[] { return [...this.#items.keys()] }
  values (): T[] { return [...this.#items.values()] }
  entries (): Array<[string, T]> { return [...this.#items.entries()] }
  get size (): number { return this.#items.size }
  /** The only one, or the first registered: for roles that usually have one backend. */
  first (): T | undefined { return this.#items.values().next().value }
  freeze (): void { this.#frozen = true }
  get frozen (): boolean { return this.#frozen }
}

export type CapabilityMaps = { readonly [K in keyof Capabilities]: CapabilityMap<Capabilities[K]> }

export interface RegistryControl {
  /** Every kind a plugin has used so far. */
  kinds: () => string[]
  freeze: () => void
}

export type Registry = CapabilityMaps & RegistryControl

/** A kind's name in error messages: `toolSources` -> "tool source", `strategies` -> "strategy". */
export const labelOf = (kind: string): string =>
  kind.replace(/[A-Z]/g, c => ` ${c.toLowerCase()}`).replace(/ies$/, 'y').replace(/([^s])s$/, '$1')

/**
 * A registry whose maps are created on first use, under the property name the contract
 * declared. After `freeze()` an unknown kind is still readable (an empty frozen map), so
 * a plugin that looks up a kind nobody registered sees "none available", not a crash.
 */
export function createRegistry (): Registry {
  const maps = new Map<string, CapabilityMap<unknown>>()
  let frozen = false
  const mapFor = (kind: string): CapabilityMap<unknown> => {
    let m = maps.get(kind)
    if (m === undefined) {
      m = new CapabilityMap<unknown>(labelOf(kind))
      if (frozen) m.freeze()
      maps.set(kind, m)
    }
    return m
  }
  const control: RegistryControl = {
    kinds: () => [...maps.keys()],
    freeze: () => { frozen = true; for (const m of maps.values()) m.freeze() },
  }
  return new Proxy(control, {
    get (target, prop) {
      if (typeof prop !== 'string' || prop in target) return Reflect.get(target, prop)
      // `then` is probed by `await`: a registry is not a promise.
      if (prop === 'then') return undefined
      return mapFor(prop)
    },
  }) as Registry
}
