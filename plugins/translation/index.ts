// Plugin: Level II translation. Registers a translator (NLLB-200 via transformers.js,
// loaded on the first translate request and kept in the resource pool; or the configured
// chat model), the `translation` health section, POST /api/tools/translate and
// GET /api/tools/languages. The source language, when not given, comes from the
// registered detector (plugin language-detect) through the lexicon. The model loader is
// the model-loading kit (@agentd/sdk/kits/models); the chat backend needs providers-api.
import fp from 'fastify-plugin'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { Errors, envInt, type PluginOptions } from '@agentd/sdk'
import type { Translator } from '@agentd/sdk/contracts/language'
import { resolveModelDir, type HubSource, LazyModel, type ModelLoader } from '@agentd/sdk/kits/models'
import { createChatTranslator } from './chat-backend.ts'
import { translationHealth } from './health.ts'
import { createNllbTranslator, loadNllb, type Seq2SeqModel } from './nllb-backend.ts'
import { explainLoadFailure } from './explain.ts'
import { options, type TranslationOptions } from './options.ts'
import { translationRoutes } from './routes.ts'

export { options }

/** Builds the loader for a model source; tests inject one (no weights reach a test machine). */
export type NllbLoaderFactory = (src: HubSource, opts: TranslationOptions) => ModelLoader<Seq2SeqModel>

const realLoader: NllbLoaderFactory = (src, opts) => async (onProgress) => await loadNllb(src, onProgress, opts.max_chunk_tokens)

export function createTranslationPlugin (loaderFactory: NllbLoaderFactory = realLoader) {
  return fp(async (app: FastifyInstance, opts: PluginOptions<TranslationOptions>) => {
    const cfg = app.agentConfig
    let translator: Translator
    if (opts.backend === 'chat') {
      translator = createChatTranslator(opts.instance, app, { model: opts.chat_model, maxChunkChars: opts.chat_max_chunk_chars })
      // The chat backend calls models through providers-api's resolver: without it, refuse
      // the plugin set now rather than every translate request (nllb needs no provider).
      app.addHook('onReady', async () => {
        if (app.registry.modelResolvers.size === 0) {
          throw new Errors.PLUGIN_CONFIG(`translation: backend "chat" calls models through the model resolver; add { "name": "providers-api", "module": "./plugins/providers-api" } to plugins.json, or use backend "nllb".`)
        }
      })
    } else {
      const src: HubSource = {
        model: opts.model,
        dir: resolveModelDir(cfg.settings.cwd, opts.model_dir ?? cfg.lookup('translation.model_dir', 'TRANSLATION_MODEL_DIR')),
        cacheDir: path.join(cfg.settings.dataDir, 'models'),
        token: cfg.lookup('huggingface.token', 'HF_TOKEN'),
        hubUrl: cfg.lookup('huggingface.endpoint', 'HF_ENDPOINT'),
        connectTimeoutMs: opts.hub_timeout_seconds * 1000,
        dtype: opts.dtype,
      }
      const holder = await app.resources.acquire({
        kind: 'translation-model',
        // What makes two loaded models interchangeable; the token is kept only as a hash.
        options: { ...src, maxChunkTokens: opts.max_chunk_tokens, loader: loaderFactory === realLoader ? 'real' : 'injected' },
        create: () => new LazyModel<Seq2SeqModel>({
          model: src.dir ?? src.model,
          what: 'translation model',
          load: loaderFactory(src, opts),
          log: app.log,
          dispose: async (m) => { await m.dispose?.() },
          explain: (err) => explainLoadFailure(src, err),
        }),
        dispose: async (m) => { await m.dispose() },
      })
      translator = createNllbTranslator(opts.instance, holder, { maxChunkTokens: opts.max_chunk_tokens, loadWaitMs: opts.load_wait_seconds * 1000 })
    }
    app.registry.translators.add(opts.instance, translator)
    const detector = () => app.registry.detectors.first()
    app.registry.healthContributors.add(opts.instance, translationHealth(translator, detector, opts.backend))
    await translationRoutes(app, { translator, detector, maxLength: envInt(cfg.env, 'AGENT_MAX_TEXT_LENGTH', 100_000), minSourceConfidence: opts.min_source_confidence })
  }, { name: 'translation', fastify: '5.x' })
}

export default createTranslationPlugin()
