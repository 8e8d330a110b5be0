// Plugin: Level I language detection. Registers a detector (one of the twenty languages
// of SPEC.md, ISO 639-1, calibrated confidence) and owns GET/POST
// /api/tools/language-detect-20. The backend (cld3 by default, in worker threads: see
// cld3-pool.ts) lives in the resource pool, so a live reload keeps it loaded and its
// worker threads running; the last release (server close) terminates them.
import fp from 'fastify-plugin'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import type { PluginOptions } from '@agentd/sdk'
import type { DetectionBackend } from './backend.ts'
import { loadClassifier } from './classifier-backend.ts'
import { loadCld3 } from './cld3-backend.ts'
import { loadCld3Pool, poolSize } from './cld3-pool.ts'
import { createDetector } from './detector.ts'
import { resolveModelDir, type HubSource, LazyModel, type LogSink, type ModelLoader } from '@agentd/sdk/kits/models'
import { options, type LanguageDetectOptions } from './options.ts'
import { detectRoutes } from './routes.ts'

export { options }

export interface DetectLoaders {
  /** cld3 in the request thread (workers 0) or in a pool of that many worker threads. */
  cld3: (workers: number, log: LogSink) => ModelLoader<DetectionBackend>
  classifier: (src: HubSource) => ModelLoader<DetectionBackend>
}

const REAL_LOADERS: DetectLoaders = {
  cld3: (workers, log) => async () => workers > 0 ? await loadCld3Pool(workers, { log }) : await loadCld3(),
  classifier: (src) => async (onProgress) => await loadClassifier(src, onProgress),
}

/** The plugin with its model loaders replaceable (tests inject loaders; no weights reach a test machine). */
export function createLanguageDetectPlugin (loaders: DetectLoaders = REAL_LOADERS) {
  return fp(async (app: FastifyInstance, opts: PluginOptions<LanguageDetectOptions>) => {
    const cfg = app.agentConfig
    let model: string
    let load: ModelLoader<DetectionBackend>
    let poolOptions: Record<string, unknown>
    // Resolved before it keys the pool: `auto` and the number it stands for share one instance.
    const workers = opts.backend === 'cld3' ? poolSize(opts.workers) : 0
    if (opts.backend === 'cld3') {
      model = 'cld3'
      load = loaders.cld3(workers, app.log)
      poolOptions = { backend: 'cld3', workers }
    } else {
      const src: HubSource = {
        model: opts.classifier_model,
        dir: resolveModelDir(cfg.settings.cwd, opts.classifier_dir ?? cfg.lookup('language_detection.model_dir', 'LANGUAGE_DETECT_MODEL_DIR')),
        cacheDir: path.join(cfg.settings.dataDir, 'models'),
        token: cfg.lookup('huggingface.token', 'HF_TOKEN'),
        hubUrl: cfg.lookup('huggingface.endpoint', 'HF_ENDPOINT'),
        connectTimeoutMs: opts.hub_timeout_seconds * 1000,
        dtype: opts.classifier_dtype,
      }
      model = src.dir ?? src.model
      load = loaders.classifier(src)
      poolOptions = { backend: 'classifier', ...src }
    }
    const holder = await app.resources.acquire({
      kind: 'language-detection-model',
      options: { ...poolOptions, loaders: loaders === REAL_LOADERS ? 'real' : 'injected' },
      create: () => new LazyModel<DetectionBackend>({
        model,
        what: 'language detection model',
        load,
        log: app.log,
        dispose: async (b) => { await b.dispose?.() },
        explain: (err) => `The language detection model ${model} could not be loaded (${(err as Error).message}). ` +
          (opts.backend === 'cld3'
            ? 'cld3 ships inside the cld3-asm package: reinstall it (npm install cld3-asm).'
            : 'Set LANGUAGE_DETECT_MODEL_DIR (or the plugin option classifier_dir) to a folder with the model files, allow access to the Hugging Face hub (HF_TOKEN for gated models), or use the plugin option backend: "cld3", which needs no download.'),
      }),
      // A load still running (worker threads starting) is awaited: it ends them itself on
      // seeing the dispose, and no thread may outlive the server. Only cld3's: a
      // classifier download could hold close up for minutes.
      dispose: async (m) => { await m.dispose(); if (opts.backend === 'cld3') await m.settled() },
    })
    // Loaded on the first detection, for cld3 as for the classifier: cld3's worker threads
    // (a V8 isolate and cld3's WebAssembly each) were ~16 MB of an idle server's RSS that
    // nobody had asked for, against 50-250 ms once, on the first detection.
    const detector = createDetector(opts.instance, holder)
    app.registry.detectors.add(opts.instance, detector)
    await detectRoutes(app, detector)
  }, { name: 'language-detect', fastify: '5.x' })
}

export default createLanguageDetectPlugin()
