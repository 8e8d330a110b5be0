// The worker thread of the offline extractor (offline-thread.ts starts it): compromise
// loaded once, then one message per conversation, answered with its extraction or the error.
import { parentPort } from 'node:worker_threads'
import { loadNlp } from '@agentd/sdk/kits/memory'
import { extractOffline } from './offline-extractor.ts'
import type { ExtractionTurn } from './extraction.ts'

export interface WorkRequest { id: number, turns: ExtractionTurn[] }

const port = parentPort
if (port === null) throw new Error('offline-worker.ts runs as a worker thread (offline-thread.ts starts it)')
const nlp = loadNlp()
port.on('message', (req: WorkRequest) => {
  nlp.then(n => { port.postMessage({ id: req.id, extraction: extractOffline(n, req.turns) }) })
    .catch((err: unknown) => { port.postMessage({ id: req.id, error: (err as Error).message ?? String(err) }) })
})
