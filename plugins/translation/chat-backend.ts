// The alternative backend: the configured chat model translates, for machines that cannot
// run NLLB. The provider is looked up through the registry (model ids as DECISIONS.md says).
import type { Translator, ModelStatus } from '@agentd/sdk/contracts/language'
import type { Provider } from '@agentd/sdk/contracts/provider'
import { resolveModel, type ResolveScope } from '../providers-api/resolve-model.ts'
import { splitText } from './chunk.ts'
import { TranslateErrors } from './errors.ts'
import { joinerFor, nllbName } from './languages.ts'

export interface ChatBackendOptions {
  /** Model id; undefined: the default chat model. */
  model?: string
  maxChunkChars: number
}

const THINK = /<think(?:ing)?>[\s\S]*?<\/think(?:ing)?>/giu

export function systemPrompt (source: string, target: string): string {
  return `You are a translation engine. Translate the user's message from ${nllbName(source) ?? source} (${source}) ` +
    `to ${nllbName(target) ?? target} (${target}). Answer with the translation only: no notes, no quotes, ` +
    'no explanations. Keep names, numbers, line breaks and formatting as they are.'
}

export function createChatTranslator (id: string, scope: ResolveScope, o: ChatBackendOptions): Translator {
  const resolve = (): { provider: Provider, model: string } => {
    try {
      return resolveModel(scope, o.model)
    } catch (err) {
      throw new TranslateErrors.UNAVAILABLE(`The chat translation backend has no model to use: ${(err as Error).message} Set the translation plugin option chat_model (provider/model) or DEFAULT_MODEL to a model of a configured provider.`)
    }
  }
  const status = (): ModelStatus => {
    try {
      const { provider, model } = resolve()
      const s = provider.status()
      const name = `${provider.id}/${model}`
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
        out.push(r.content.replace(THINK, '').trim())
      }
      return split.join(out)
    },
  }
}
