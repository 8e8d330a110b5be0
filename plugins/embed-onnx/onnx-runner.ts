// A loaded sentence-embedding model: the tokenizer (@huggingface/tokenizers, plain
// JavaScript) and the ONNX graph (onnxruntime-node, whose native runtime ships inside its
// npm package and runs the graph on its own thread, off the event loop). A text in, its
// unit vector out, pooled as the model was trained. One text per run, never a padded
// batch: the int8 graphs quantize activations per tensor, so padding a text to a longer
// neighbour's width moves its vector (cosine 0.984 to itself alone, measured); alone it is
// the same vector whenever it is embedded, and on one thread a batch saves nothing (2 ms a
// text either way).
import { readFile } from 'node:fs/promises'
import { importOptional } from '@agentd/sdk/kits/models'
import { normalize } from '@agentd/sdk/kits/memory'
import type { OnnxModel } from './models.ts'
import type { WeightFiles } from './maven-weights.ts'

/** A text in, its unit vector out. */
export type OnnxRunner = ((text: string) => Promise<number[]>) & { release?: () => Promise<void> }

/** Tokens per text: these models were trained on up to 256 (MiniLM) or 512; a chat turn's gist is in its start. */
export const MAX_TOKENS = 256

type Ort = typeof import('onnxruntime-node')
type Tokenizers = typeof import('@huggingface/tokenizers')

const missing = (pkg: string) => (cause: unknown): Error => new Error(
  `The optional package ${pkg} is not installed, and embed-onnx runs its model with it. Install it (npm install ${pkg}; \`npm ci --omit=optional\` leaves it out), or use the embed-hash embedder.`, { cause })

export async function loadRunner (m: OnnxModel, files: WeightFiles): Promise<OnnxRunner> {
  const [ort, { Tokenizer }, json] = await Promise.all([
    importOptional<Ort>('onnxruntime-node', missing('onnxruntime-node')),
    importOptional<Tokenizers>('@huggingface/tokenizers', missing('@huggingface/tokenizers')),
    readFile(files.tokenizer, 'utf8'),
  ])
  const tokenizer = new Tokenizer(JSON.parse(json) as object, {})
  // One thread: the server shares its cores with everything else it does.
  const session = await ort.InferenceSession.create(files.onnx, { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all' })
  const typeIds = session.inputNames.includes('token_type_ids')

  const run: OnnxRunner = async text => {
    const ids = clip(tokenizer.encode(m.prefix + text).ids)
    const shape = [1, ids.length]
    const feeds: Record<string, InstanceType<Ort['Tensor']>> = {
      input_ids: new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), shape),
      attention_mask: new ort.Tensor('int64', new BigInt64Array(ids.length).fill(1n), shape),
    }
    if (typeIds) feeds.token_type_ids = new ort.Tensor('int64', new BigInt64Array(ids.length), shape)
    const out = await session.run(feeds)
    const states = out[session.outputNames[0]]
    const dims = states.dims
    if (dims.length !== 3 || dims[2] !== m.dimensions) throw new Error(`${m.file}.onnx returned states of shape [${dims.join(', ')}], expected [1, tokens, ${m.dimensions}]`)
    return normalize(pool(states.data as Float32Array, ids.length, m))
  }
  run.release = async () => { await session.release() }
  return run
}

/** At most MAX_TOKENS, the closing [SEP] kept. */
function clip (ids: number[]): number[] {
  return ids.length <= MAX_TOKENS ? ids : [...ids.slice(0, MAX_TOKENS - 1), ids[ids.length - 1]]
}

/** One vector from the token states [1, length, d]: the first ([CLS]) or the mean of all. */
function pool (states: Float32Array, length: number, m: OnnxModel): number[] {
  const d = m.dimensions
  if (m.pooling === 'cls') return Array.from(states.subarray(0, d))
  const v = new Array<number>(d).fill(0)
  for (let j = 0; j < length; j++) for (let k = 0; k < d; k++) v[k] += states[j * d + k]
  return v.map(x => x / length)
}
