import { Type, type Static } from '@agentd/sdk/typebox'

export const options = Type.Object({
  /**
   * `cld3`: Google's CLD3 in WebAssembly, its model inside the npm package (offline).
   * `classifier`: a transformers.js text-classification model over the twenty languages
   * (SPEC.md's ~50 MB model), loaded on the first detection.
   */
  backend: Type.Union([Type.Literal('cld3'), Type.Literal('classifier')], { default: 'cld3' }),
  /**
   * cld3 only: how many worker threads run detection. `auto` (the default): one fewer
   * than the machine's cores, at least 1 and at most 4 (1 on a 2-core machine). 0:
   * detect in the request's thread. Off the event loop by default so that a burst of
   * detections never holds up chat streams and other requests served by the same loop.
   */
  workers: Type.Union([Type.Literal('auto'), Type.Integer({ minimum: 0, maximum: 32 })], { default: 'auto' }),
  /**
   * Hugging Face model id of the classifier (ONNX weights for transformers.js, labels are
   * ISO 639-1 codes): the ONNX export of papluca/xlm-roberta-base-language-detection by
   * default, whose labels are exactly the twenty languages. Not SPEC.md's ~50 MB: about
   * 300 MB with `q8` (280 MB weights + 17 MB tokenizer).
   */
  classifier_model: Type.String({ default: 'onnx-community/xlm-roberta-base-language-detection-ONNX', minLength: 1 }),
  /** ONNX weights variant of the classifier; `q8` is the quantized, smaller download. */
  classifier_dtype: Type.String({ default: 'q8', minLength: 1 }),
  /** A folder holding the classifier's files (config.json, tokenizer.json, onnx/), for offline machines; relative to the server's working directory. Default: env LANGUAGE_DETECT_MODEL_DIR. */
  classifier_dir: Type.Optional(Type.String({ minLength: 1 })),
  /** Classifier only: how long to wait for the model hub to answer (headers, or the next bytes of a download) before the load fails. */
  hub_timeout_seconds: Type.Number({ exclusiveMinimum: 0, maximum: 300, default: 5 }),
}, { additionalProperties: false })

export type LanguageDetectOptions = Static<typeof options>
