// The model's thread (a piscina worker, onnx-runner.ts): tokenizes a text, runs the graph
// and pools the token states into the text's unit vector. onnxruntime-node runs a graph
// synchronously on the thread that calls it, so in the server's thread every text held
// up every request and stream for its 2-4 ms; here the server's thread only passes
// messages. Plain JavaScript: it needs none of the parent's preloads (a TypeScript loader
// under the tests and `npm run dev`), so it cannot import the SDK's TypeScript either: the
// optional-package check (kits/models importOptional) is repeated here in a few lines.
import { readFile } from 'node:fs/promises'
import { workerData } from 'piscina'

/** @typedef {{ onnx: string, tokenizer: string, pooling: 'mean' | 'cls', prefix: string, dimensions: number, maxTokens: number }} ModelData */

/** @type {ModelData} */
const m = workerData

const missing = (pkg, cause) => new Error(
  `The optional package ${pkg} is not installed, and embed-onnx runs its model with it. Install it (npm install ${pkg}; \`npm ci --omit=optional\` leaves it out), or use the embed-hash embedder.`, { cause })

async function importOptional (pkg) {
  try {
    return await import(pkg)
  } catch (err) {
    throw err?.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes(pkg) ? missing(pkg, err) : err
  }
}

async function load () {
  const [ort, { Tokenizer }, json] = await Promise.all([
    importOptional('onnxruntime-node'),
    importOptional('@huggingface/tokenizers'),
    readFile(m.tokenizer, 'utf8'),
  ])
  const tokenizer = new Tokenizer(JSON.parse(json), {})
  // One thread: the server shares its cores with everything else it does.
  const session = await ort.InferenceSession.create(m.onnx, { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all' })
  return { ort, tokenizer, session, typeIds: session.inputNames.includes('token_type_ids') }
}

/** Loaded on the first task (the runner's warm-up), once per thread. */
let loaded

/** At most maxTokens, the closing [SEP] kept. */
function clip (ids) {
  return ids.length <= m.maxTokens ? ids : [...ids.slice(0, m.maxTokens - 1), ids[ids.length - 1]]
}

/** One unit vector (doubles) from the token states [1, length, d]: the first ([CLS]) or the mean of all. */
function pool (states, length) {
  const d = m.dimensions
  const v = new Float64Array(d)
  if (m.pooling === 'cls') v.set(states.subarray(0, d))
  else {
    for (let j = 0; j < length; j++) for (let k = 0; k < d; k++) v[k] += states[j * d + k]
    for (let k = 0; k < d; k++) v[k] /= length
  }
  let sum = 0
  for (let k = 0; k < d; k++) sum += v[k] * v[k]
  const n = Math.sqrt(sum)
  if (n > 0) for (let k = 0; k < d; k++) v[k] /= n
  return v
}

/** `{ text }` -> its unit vector; `{}` only loads the model (and says what failed). */
export default async function embed ({ text }) {
  loaded ??= load().catch(err => { loaded = undefined; throw err })
  const { ort, tokenizer, session, typeIds } = await loaded
  if (text === undefined) return null
  const ids = clip(tokenizer.encode(m.prefix + text).ids)
  const shape = [1, ids.length]
  const feeds = {
    input_ids: new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), shape),
    attention_mask: new ort.Tensor('int64', new BigInt64Array(ids.length).fill(1n), shape),
  }
  if (typeIds) feeds.token_type_ids = new ort.Tensor('int64', new BigInt64Array(ids.length), shape)
  const out = await session.run(feeds)
  const states = out[session.outputNames[0]]
  const dims = states.dims
  if (dims.length !== 3 || dims[2] !== m.dimensions) throw new Error(`${m.onnx} returned states of shape [${dims.join(', ')}], expected [1, tokens, ${m.dimensions}]`)
  return pool(states.data, ids.length)
}

/** Frees the session (the runner's release; the pool ends the thread after). */
export async function release () {
  const l = await loaded?.catch(() => undefined)
  loaded = undefined
  await l?.session.release()
}
