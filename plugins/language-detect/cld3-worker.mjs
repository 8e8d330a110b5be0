// A worker thread running cld3 for the worker-pool backend (cld3-pool.ts). Each message
// is a batch { ids, texts }, answered with one message: [{ id, guess } | { id, error }].
// Plain JavaScript so it starts under any loader (worker threads do not inherit tsx).
// Byte limits come from cld3-backend.ts via workerData.
import { parentPort, workerData } from 'node:worker_threads'
import { loadModule } from 'cld3-asm'

const identifier = (await loadModule()).create(workerData.minBytes, workerData.maxBytes)

// A WebAssembly trap (or an Emscripten abort, thrown as a string) leaves cld3's memory
// in an unknown state: rethrown, it ends this thread, and the pool replaces it and
// retries the batch, instead of every later answer coming from a broken identifier.
const fatal = (err) => err instanceof WebAssembly.RuntimeError || !(err instanceof Error)

parentPort.on('message', ({ ids, texts }) => {
  const results = new Array(ids.length)
  for (let i = 0; i < ids.length; i++) {
    try {
      const r = identifier.findLanguage(texts[i])
      results[i] = { id: ids[i], guess: { language: String(r.language), probability: r.probability, reliable: r.is_reliable } }
    } catch (err) {
      if (fatal(err)) throw err
      results[i] = { id: ids[i], error: err.message }
    }
  }
  parentPort.postMessage(results)
})
parentPort.postMessage({ ready: true })
