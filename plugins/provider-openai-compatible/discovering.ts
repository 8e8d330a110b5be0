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
import type { CompletionRequest, ModelInfo, Provider } from '@agentd/sdk/contracts/provider'
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
    log.info({ provider: inner.id, model: req.model, err: (err as Error).message }, 'the server refused tools for this model; retrying without them, and not offering them to it again')
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
    stream: (req, signal) => ({
      async * [Symbol.asyncIterator] () {
        const sent = await prepare(req)
        let started = false
        try {
          for await (const part of inner.stream(sent, signal)) { started = true; yield part }
        } catch (err) {
          if (started || !noteRefusal(sent, err)) throw err
          yield * inner.stream(withoutTools(sent), signal)
        }
      },
    }),
  }
}
