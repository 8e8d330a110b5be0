// The catalogue's names: ONNX_EMBEDDING_MODEL picks one, unset means the default, anything else is refused saying what is there.
import t from 'tap'
import { DEFAULT_MODEL, MODELS, onnxModel } from './models.ts'

t.test('unset or blank picks the default; a listed name picks itself', async t => {
  t.equal(onnxModel(undefined), DEFAULT_MODEL)
  t.equal(onnxModel('  '), DEFAULT_MODEL)
  t.equal(onnxModel(' e5-small-v2-q '), 'e5-small-v2-q')
})

t.test('a name not in the catalogue is refused, naming those that are', async t => {
  t.throws(() => onnxModel('bge-large'), /ONNX_EMBEDDING_MODEL is "bge-large"; embed-onnx runs all-minilm-l6-v2-q, bge-small-en-v1\.5-q, e5-small-v2-q/)
})

t.test('every model is pinned: a Maven version, a SHA-256, 384 dimensions', async t => {
  for (const [name, m] of Object.entries(MODELS)) {
    t.match(m.sha256, /^[0-9a-f]{64}$/, name)
    t.match(m.version, /^\d+\.\d+\.\d+/, name)
    t.equal(m.dimensions, 384, name)
  }
})
