// A worker thread running cld3 for the worker-pool backend (cld3-pool.ts): one guess per
// message, answered with the same id. Plain JavaScript so it starts under any loader
// (worker threads do not inherit tsx). Byte limits come from cld3-backend.ts via workerData.
import { parentPort, workerData } from 'node:worker_threads'
import { loadModule } from 'cld3-asm'

const identifier = (await loadModule()).create(workerData.minBytes, workerData.maxBytes)
parentPort.on('message', (m) => {
  try {
    const r = identifier.findLanguage(m.text)
    parentPort.postMessage({ id: m.id, guess: { language: String(r.language), probability: r.probability, reliable: r.is_reliable } })
  } catch (err) {
    parentPort.postMessage({ id: m.id, error: err instanceof Error ? err.message : String(err) })
  }
})
parentPort.postMessage({ ready: true })
