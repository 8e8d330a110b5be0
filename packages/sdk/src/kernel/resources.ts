// A process-wide pool of expensive things (database pools, PGlite, Redis clients, MCP
// connections, loaded models, chat sessions) that outlive a single generation.
// Keyed by kind + a stable hash of the options; reference counted, so a reload that
// acquires the same key before the old generation releases it gets the same instance,
// and the last release disposes it.
import { createHash } from 'node:crypto'
import type { ResourceSpec, Resources } from './plugin.ts'


interface Entry {
  key: string
  kind: string
  refs: number
  value: Promise<unknown>
  dispose?: (value: unknown) => Promise<void> | void
}

/** Deterministic JSON: object keys sorted, so {a,b} and {b,a} hash alike. */
export function stableStringify (value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined'
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`
  const obj = value as Record<string, unknown>
  return `{${Object.keys(obj).sort().filter(k => obj[k] !== undefined).map(k => `${JSON.stringify(k)}:${stableStringify(obj[k])}`).join(',')}}`
}

export function resourceKey (kind: string, options: unknown): string {
  return `${kind}:${createHash('sha256').update(stableStringify(options)).digest('hex').slice(0, 16)}`
}

export interface ResourceHandle<T> {
  readonly key: string
  readonly value: T
  release: () => Promise<void>
}

export class ResourcePool {
  readonly #entries = new Map<string, Entry>()

  async acquire<T> (spec: ResourceSpec<T>): Promise<ResourceHandle<T>> {
    const key = resourceKey(spec.kind, spec.options)
    let entry = this.#entries.get(key)
    if (entry === undefined) {
      const created: Entry = { key, kind: spec.kind, refs: 0, value: Promise.resolve().then(spec.create), dispose: spec.dispose as Entry['dispose'] }
      entry = created
      this.#entries.set(key, created)
      // A failed creation must not poison the key: the next acquire tries again.
      created.value.catch(() => { if (this.#entries.get(key) === created) this.#entries.delete(key) })
    }
    entry.refs++
    let value: T
    try {
      value = await entry.value as T
    } catch (err) {
      entry.refs--
      throw err
    }
    let released = false
    const e = entry
    return {
      key,
      value,
      release: async () => {
        if (released) return
        released = true
        e.refs--
        if (e.refs > 0) return
        if (this.#entries.get(key) === e) this.#entries.delete(key)
        await e.dispose?.(value)
      },
    }
  }

  /** What is held now: for /api/plugins-style introspection and tests. */
  list (): Array<{ key: string, kind: string, refs: number }> {
    return [...this.#entries.values()].map(e => ({ key: e.key, kind: e.kind, refs: e.refs }))
  }

  /** Disposes everything regardless of holders: process shutdown only. */
  async disposeAll (): Promise<void> {
    const entries = [...this.#entries.values()]
    this.#entries.clear()
    await Promise.allSettled(entries.map(async e => { const v = await e.value; await e.dispose?.(v) }))
  }
}

/**
 * A generation's view of the pool: everything it acquires is released when the
 * generation closes, so plugins never release by hand.
 */
export class ScopedResources implements Resources {
  readonly #pool: ResourcePool
  readonly #handles: Array<ResourceHandle<unknown>> = []

  constructor (pool: ResourcePool) { this.#pool = pool }

  async acquire<T> (spec: ResourceSpec<T>): Promise<T> {
    const handle = await this.#pool.acquire(spec)
    this.#handles.push(handle as ResourceHandle<unknown>)
    return handle.value
  }

  async releaseAll (): Promise<void> {
    const handles = this.#handles.splice(0)
    await Promise.allSettled(handles.map(async h => { await h.release() }))
  }
}
