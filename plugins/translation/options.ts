import { Type, type Static } from '@agentd/sdk/typebox'

export const options = Type.Object({
  /**
   * `nllb`: NLLB-200 through transformers.js, loaded on the first translate request.
   * `chat`: the configured chat model translates (for machines that cannot run NLLB).
   */
  backend: Type.Union([Type.Literal('nllb'), Type.Literal('chat')], { default: 'nllb' }),
  /** Hugging Face model id of the NLLB-200 ONNX export. */
  model: Type.String({ default: 'Xenova/nllb-200-distilled-600M', minLength: 1 }),
  /** Folder with pre-copied weights (the model folder, or one holding `<model id>/`), relative to the server's working directory. Default: env TRANSLATION_MODEL_DIR. */
  model_dir: Type.Optional(Type.String({ minLength: 1 })),
  /** ONNX weights variant; `q8` is the quantized, smallest download. */
  dtype: Type.String({ default: 'q8', minLength: 1 }),
  /** Largest piece sent to NLLB at once, in model tokens (its window is 512; quality drops well before). */
  max_chunk_tokens: Type.Integer({ minimum: 16, maximum: 500, default: 200 }),
  /** How long a request waits for a model that is still loading before it gets 503 with the progress. */
  load_wait_seconds: Type.Number({ minimum: 0, maximum: 3600, default: 60 }),
  /**
   * How long to wait for the model hub to answer (headers, or the next bytes of a
   * download) before the load fails. 5 s: the first hub request that gets no answer
   * fails the load, so a first translate request against a silent hub answers 503 in
   * about 5 s, well under the 10 s promised (offline.test.ts).
   */
  hub_timeout_seconds: Type.Number({ exclusiveMinimum: 0, maximum: 300, default: 5 }),
  /**
   * Percent. Without `sourceLanguage`, a detection less sure than this is not used: the
   * request gets 422 with the guess, asking for `sourceLanguage` (translating from a
   * wrong source gives confident nonsense, and a wrong "same as the target" returns the
   * text untranslated). 0 turns the check off.
   */
  min_source_confidence: Type.Number({ minimum: 0, maximum: 100, default: 50 }),
  /** Chat backend: the model id (`provider/model` or a bare name); default: the default chat model. */
  chat_model: Type.Optional(Type.String({ minLength: 1 })),
  /** Chat backend: largest piece per request, in characters. */
  chat_max_chunk_chars: Type.Integer({ minimum: 100, maximum: 100_000, default: 4000 }),
}, { additionalProperties: false })

export type TranslationOptions = Static<typeof options>
