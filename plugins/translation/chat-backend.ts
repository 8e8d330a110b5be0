// The alternative backend: the configured chat model translates, for machines that cannot
// run NLLB. The model comes from providers-api's model resolver (model ids as DECISIONS.md
// says), whose providers run the provider middleware: the provider hooks, time limit and
// abort apply to translation as they do to chat and agent runs.
import type { Translator, ModelStatus } from '@agentd/sdk/contracts/language'
import type { ResolvedModel } from '@agentd/sdk/contracts/models'
import type { Registry } from '@agentd/sdk'
import { modelResolver } from '@agentd/sdk/kits/provider'
import { splitThinking } from '@agentd/sdk/kits/output'
import { splitText } from './chunk.ts'
import { TranslateErrors } from './errors.ts'
import { joinerFor, nllbName } from './languages.ts'

export interface ChatBackendOptions {
  /** Model id; undefined: the default chat model. */
  model?: string
  maxChunkChars: number
}

export function systemPrompt (source: string, target: string): string {
  return `You are a translation engine. Translate the user's message from ${nllbName(source) ?? source} (${source}) ` +
    `to ${nllbName(target) ?? target} (${target}). Answer with the translation only: no notes, no quotes, ` +
    'no explanations. Keep names, numbers, line breaks and formatting as they are.'
}

export function createChatTranslator (id: string, scope: { registry: Registry }, o: ChatBackendOptions): Translator {
  const resolve = (): ResolvedModel => {
    try {
      return modelResolver(scope, 'The translation plugin (backend "chat")').resolve(o.model)
    } catch (err) {
      throw new TranslateErrors.UNAVAILABLE(`The chat translation backend has no model to use: ${(err as Error).message} Set the translation plugin option chat_model (provider/model) or DEFAULT_MODEL to a model of a configured provider.`)
    }
  }
  const status = (): ModelStatus => {
    try {
      const { provider, id: name } = resolve()
      const s = provider.status()
      return s.status === 'configured' ? { status: 'healthy', model: name } : { status: 'error', model: name, error: s.error ?? `provider ${provider.id} is not configured` }
    } catch (err) {
      return { status: 'error', error: (err as Error).message }
    }
  }
  return {
    id,
    status,
    translate: async (req, signal) => {
      const { provider, model } = resolve()
      const split = splitText(req.text, o.maxChunkChars, { joiner: joinerFor(req.target) })
      const out: string[] = []
      for (const piece of split.pieces) {
        signal?.throwIfAborted()
        const r = await provider.complete({
          model,
          temperature: 0,
          messages: [{ role: 'system', content: systemPrompt(req.source, req.target) }, { role: 'user', content: piece }],
        }, signal)
        out.push(splitThinking(r.content).answer)
      }
      return split.join(out)
    },
  }
}
