// One model load in a process of its own, for tests of what survives a restart (the
// download cache): transformers.js memoizes config lookups per process, so a second load
// in the same process would prove nothing. Takes a HubSource as JSON in argv[2]; prints
// `{ ok, error? }` as one JSON line.
import { loadHubPipeline, type HubSource } from '../hf-loader.ts'

const src = JSON.parse(process.argv[2] ?? '{}') as HubSource
try {
  await loadHubPipeline('text-classification', src, () => undefined)
  process.stdout.write(`${JSON.stringify({ ok: true })}\n`)
} catch (err) {
  process.stdout.write(`${JSON.stringify({ ok: false, error: (err as Error).message })}\n`)
}
