// A loaded sentence-embedding model: the tokenizer (@huggingface/tokenizers, plain
// JavaScript) and the ONNX graph (onnxruntime-node, whose native runtime ships inside its
// npm package), in a thread of their own (onnx-worker.mjs, one piscina worker):
// onnxruntime-node runs a graph synchronously on the thread that calls it, so in the
// server's thread each text's 2-4 ms held up every request and stream it served. A text
// in, its unit vector out, pooled as the model was trained. One text per run, never a
// padded batch: the int8 graphs quantize activations per tensor, so padding a text to a
// longer neighbour's width moves its vector (cosine 0.984 to itself alone, measured);
// alone it is the same vector whenever it is embedded, and on one thread a batch saves
// nothing (2 ms a text either way).
import { Piscina } from 'piscina'
import type { OnnxModel } from './models.ts'
import type { WeightFiles } from './maven-weights.ts'

/** A text in, its unit vector out. */
export type OnnxRunner = ((text: string) => Promise<number[]>) & { release?: () => Promise<void> }

/** Tokens per text: these models were trained on up to 256 (MiniLM) or 512; a chat turn's gist is in its start. */
export const MAX_TOKENS = 256

const WORKER = new URL('./onnx-worker.mjs', import.meta.url)

export async function loadRunner (m: OnnxModel, files: WeightFiles): Promise<OnnxRunner> {
  const pool = new Piscina<{ text?: string }, Float64Array | null>({
    filename: WORKER.href,
    workerData: { onnx: files.onnx, tokenizer: files.tokenizer, pooling: m.pooling, prefix: m.prefix, dimensions: m.dimensions, maxTokens: MAX_TOKENS },
    // One thread, kept while the model is: loading it again costs ~0.4 s.
    minThreads: 1,
    maxThreads: 1,
    idleTimeout: Infinity,
    // The worker is plain JavaScript: none of the parent's preloads (a TypeScript loader under the tests).
    execArgv: [],
  })
  try {
    // Loads the model in the thread: a missing package or a broken file fails here, with its reason.
    await pool.run({})
  } catch (err) {
    await pool.destroy()
    throw err
  }
  const run: OnnxRunner = async text => {
    const v = await pool.run({ text })
    if (v === null || v.length !== m.dimensions) throw new Error(`${m.file}.onnx gave no ${m.dimensions}-dimensional vector`)
    return Array.from(v)
  }
  run.release = async () => {
    await pool.run({}, { name: 'release' }).catch(() => undefined)
    await pool.destroy()
  }
  return run
}
