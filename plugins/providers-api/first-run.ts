// The first run's hint: once the server serves, each configured provider is asked for its
// health (in the background, bounded); when none answers, one warning says so and what to
// do. Once per process: a reload does not repeat it.
import type { FastifyBaseLogger } from 'fastify'
import type { Provider } from '@agentd/sdk/contracts/provider'
import { bounded } from './bounded.ts'

let warned = false

export const NO_PROVIDER_FIX = 'To chat, start a local model (Ollama: `ollama serve`, then `ollama pull llama3.2`; LOCAL_MODEL_URL points at it) ' +
  'or set OPENAI_API_KEY, ANTHROPIC_API_KEY or OPENROUTER_API_KEY in .env (read live, no restart). GET /api/providers/health shows each provider.'

/** Probes the providers; resolves with whether the warning was logged. */
export async function warnIfNoProvider (providers: Provider[], timeoutMs: number, log: FastifyBaseLogger, signal: AbortSignal): Promise<boolean> {
  if (warned) return false
  const results = await Promise.all(providers.map(async p => {
    if (p.status().status !== 'configured') return `${p.id}: not configured`
    try {
      const h = await bounded(timeoutMs, p.id, `${p.id} health check`, async s => await p.health(s))
      return h.status === 'healthy' ? undefined : `${p.id}: ${h.error ?? h.status}`
    } catch (err) { return `${p.id}: ${(err as Error).message}` }
  }))
  if (signal.aborted || warned || results.some(r => r === undefined)) return false
  warned = true
  log.warn({ providers: results }, `no model provider is reachable, so chat will fail. ${NO_PROVIDER_FIX}`)
  return true
}
