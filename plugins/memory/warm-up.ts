// Loading a model embedder in the background while embed-hash answers: started by the
// first embedding that finds the model not ready; after a failure, tried again at most
// once a minute (a model that cannot load must not be retried on every chat turn). Once it
// has loaded, `onReady` runs: what embed-hash stored meanwhile is then re-embedded (the
// memory plugin checks the stored vectors against the model, as it does at start).
import type { FastifyBaseLogger } from 'fastify'
import type { Embedder } from '@agentd/sdk/contracts/embedder'

const RETRY_MS = 60_000

export class WarmUp {
  readonly #log: FastifyBaseLogger
  readonly #onReady: (e: Embedder) => void
  #last = 0

  constructor (log: FastifyBaseLogger, onReady: (e: Embedder) => void = () => {}) {
    this.#log = log
    this.#onReady = onReady
  }

  /** Starts loading `e` unless it is loading, or failed less than a minute ago. `state` is its status. */
  start (e: Embedder, state: string): void {
    if (state === 'loading') return
    if (state !== 'not_loaded' && Date.now() - this.#last < RETRY_MS) return
    this.#last = Date.now()
    e.embed(['warm up']).then(() => {
      this.#log.info({ embedder: e.id }, 'memory: embedder ready')
      this.#onReady(e)
    }, (err: unknown) => {
      this.#log.warn({ embedder: e.id, err: (err as Error).message }, 'memory: embedder could not load; embed-hash keeps serving')
    })
  }
}
