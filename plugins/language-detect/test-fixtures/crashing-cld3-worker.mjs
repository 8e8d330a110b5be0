// The real cld3 worker (../cld3-worker.mjs) with crashes on cue, for the pool's tests: a
// batch holding a text with one of these markers ends the thread the way a cld3 trap
// would, before the real handler sees it, so the batch is never answered.
//   CRASH-ALWAYS  an uncaught exception, every time
//   EXIT-ALWAYS   the thread exits (process.exit in a worker ends only the worker)
//   CRASH-BATCHED an uncaught exception only when other texts share the message, so the
//                 pool's retry (alone in a message) succeeds
import { parentPort } from 'node:worker_threads'

// The port dispatches like an EventTarget: a listener that throws does not stop the
// next one. So the real handler is wrapped rather than preceded.
const on = parentPort.on.bind(parentPort)
parentPort.on = (event, handler) => on(event, event !== 'message' ? handler : (m) => {
  const texts = m.texts
  if (texts.some(t => t.includes('CRASH-ALWAYS'))) throw new Error('crashed on cue (CRASH-ALWAYS)')
  if (texts.some(t => t.includes('EXIT-ALWAYS'))) process.exit(7)
  if (texts.length > 1 && texts.some(t => t.includes('CRASH-BATCHED'))) throw new Error('crashed on cue (CRASH-BATCHED)')
  handler(m)
})
await import('../cld3-worker.mjs')
