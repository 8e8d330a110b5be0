// A provider whose tool capability, for models the catalogue does not describe, comes
// from the server (tool-support.ts) rather than the catalogue's default of "no tools":
// - capabilities(): what was learnt, else `supports_tools: true` (offer them, and see);
//   whatever the catalogue or `models.overrides` say about tools wins.
// - complete()/stream() with tools for such a model: ask the server first (once per
//   model; Ollama and LM Studio can tell), leave the tools out if it says no; if the server
//   refuses them anyway (a 4xx that names tools), remember that and retry once without.
//   A stream is retried only before its first part (a refusal is an HTTP status, so it
//   comes before any).
// - listModels(): asks about every listed model it does not know yet, so
//   GET /api/providers/models shows what was learnt (`learnt`).
import type { FastifyBaseLogger } from 'fastify'
import type { CompletionRequest, ModelInfo, Provider, StreamPart } from '@agentd/sdk/contracts/provider'
import { refusesTools, type ToolSupport } from './tool-support.ts'

export interface ToolFacts {
  /** True when shipped data or `models.overrides` says whether the model takes tools. */
  decides: (model: string) => boolean
}

export function withToolDiscovery (inner: Provider, support: ToolSupport, facts: ToolFacts, log: FastifyBaseLogger): Provider {
  const undecided = (model: string): boolean => !facts.decides(model)
  const withoutTools = (req: CompletionRequest): CompletionRequest => { const { tools: _tools, ...rest } = req; return rest }

  /** The request to send: tools left out when the server is known to refuse them for this model. */
  const prepare = async (req: CompletionRequest): Promise<CompletionRequest> => {
    if (req.tools === undefined || req.tools.length === 0 || !undecided(req.model)) return req
    const learnt = support.get(req.model) ?? await support.discover(req.model)
    return learnt?.supports_tools === false ? withoutTools(req) : req
  }
  const noteRefusal = (req: CompletionRequest, err: unknown): boolean => {
    if (req.tools === undefined || req.tools.length === 0 || !undecided(req.model) || !refusesTools(err)) return false
    support.refused(req.model)
    log.info({ model: req.model, err: (err as Error).message }, 'the server refused tools for this model; retrying without them, and not offering them to it again')
    return true
  }

  return {
    ...inner,
    capabilities: (model) => {
      const caps = inner.capabilities(model)
      if (!undecided(model)) return caps
      return { ...caps, supports_tools: support.get(model)?.supports_tools ?? true }
    },
    listModels: async (signal) => {
      const models = await inner.listModels(signal)
      return await Promise.all(models.map(async (m): Promise<ModelInfo> => {
        if (!undecided(m.name)) return m
        const learnt = support.get(m.name) ?? await support.discover(m.name)
        return { ...m, supports_tools: learnt?.supports_tools ?? true, ...(learnt === undefined ? {} : { learnt: { ...learnt } }) }
      }))
    },
    complete: async (req, signal) => {
      const sent = await prepare(req)
      try {
        return await inner.complete(sent, signal)
      } catch (err) {
        if (!noteRefusal(sent, err)) throw err
        return await inner.complete(withoutTools(sent), signal)
      }
    },
    stream: (req, signal) => new DiscoveringStream(req, signal, inner, prepare, noteRefusal, withoutTools),
  }
}

/**
 * The stream of withToolDiscovery: the first next() prepares the request and, when the
 * server refuses tools before the first part, starts again without them; after that every
 * next() is the inner stream's own, with no async layer of ours on the per-token path
 * (a generator here cost ~5% of tokens/s: bench/providers.bench.ts).
 */
class DiscoveringStream implements AsyncIterableIterator<StreamPart> {
  #it: AsyncIterator<StreamPart> | undefined
  constructor (
    private readonly req: CompletionRequest,
    private readonly signal: AbortSignal | undefined,
    private readonly inner: Provider,
    private readonly prepare: (req: CompletionRequest) => Promise<CompletionRequest>,
    private readonly noteRefusal: (req: CompletionRequest, err: unknown) => boolean,
    private readonly withoutTools: (req: CompletionRequest) => CompletionRequest,
  ) {}

  [Symbol.asyncIterator] (): this { return this }

  // Not async: after the first part, the inner stream's own promise is handed on as it is.
  next (): Promise<IteratorResult<StreamPart>> {
    return this.#it !== undefined ? this.#it.next() : this.#first()
  }

  async #first (): Promise<IteratorResult<StreamPart>> {
    const sent = await this.prepare(this.req)
    this.#it = this.inner.stream(sent, this.signal)[Symbol.asyncIterator]()
    try {
      return await this.#it.next()
    } catch (err) {
      if (!this.noteRefusal(sent, err)) throw err
      this.#it = this.inner.stream(this.withoutTools(sent), this.signal)[Symbol.asyncIterator]()
      return await this.#it.next()
    }
  }

  async return (): Promise<IteratorResult<StreamPart>> {
    const it = this.#it
    this.#it = EMPTY
    return await (it?.return?.() ?? Promise.resolve({ done: true as const, value: undefined }))
  }
}

/** What a stream stopped before its first part continues with. */
const EMPTY: AsyncIterator<StreamPart> = { next: async () => ({ done: true, value: undefined }) }
