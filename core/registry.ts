// The registry: one typed map per capability kind. Plugins fill it while a generation
// is being built; after the generation is ready it is frozen, so nothing changes under
// a request.
import { Errors } from './errors.ts'
import type { Provider } from './contracts/provider.ts'
import type { ToolSource } from './contracts/tool-source.ts'
import type { Strategy } from './contracts/strategy.ts'
import type { GraphStore, KvStore, MemoryService, RecallTechnique, RelationalStore } from './contracts/memory.ts'
import type { Embedder } from './contracts/embedder.ts'
import type { Job } from './contracts/job.ts'
import type { Detector, Translator } from './contracts/language.ts'
import type { HealthContributor } from './contracts/health.ts'

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
}

export class Registry {
  readonly providers = new CapabilityMap<Provider>('provider')
  readonly strategies = new CapabilityMap<Strategy>('strategy')
  readonly memory = {
    graph: new CapabilityMap<GraphStore>('graph store'),
    relational: new CapabilityMap<RelationalStore>('relational store'),
    kv: new CapabilityMap<KvStore>('key-value store'),
    service: new CapabilityMap<MemoryService>('memory service'),
  }

  readonly embedders = new CapabilityMap<Embedder>('embedder')
  readonly recall = new CapabilityMap<RecallTechnique>('recall technique')
  readonly jobs = new CapabilityMap<Job>('job')
  readonly detectors = new CapabilityMap<Detector>('language detector')
  readonly translators = new CapabilityMap<Translator>('translator')
  readonly toolSources = new CapabilityMap<ToolSource>('tool source')
  readonly health = new CapabilityMap<HealthContributor>('health contributor')

  #all (): Array<CapabilityMap<unknown>> {
    return [this.providers, this.strategies, ...Object.values(this.memory), this.embedders, this.recall,
      this.jobs, this.detectors, this.translators, this.toolSources, this.health] as Array<CapabilityMap<unknown>>
  }

  freeze (): void { for (const m of this.#all()) m.freeze() }
}
