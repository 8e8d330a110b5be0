// Runs a provider call with a time limit: the signal is aborted and the promise rejects
// when the limit passes, so a hung upstream cannot hold an endpoint open. The rejection is
// the provider layer's 504, so an endpoint that lets it through answers 504, never 500.
import { ProviderErrors, tag } from '@agentd/sdk/kits/provider'
import { TIMED_OUT, within } from '@agentd/sdk'

export async function bounded<T> (ms: number, provider: string, what: string, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const ac = new AbortController()
  const outcome = await within(fn(ac.signal), ms)
  if (outcome !== TIMED_OUT) return outcome
  ac.abort()
  throw tag(new ProviderErrors.TIMEOUT(`${what} did not answer within ${ms / 1000} s; check the ${provider} server.`), { provider })
}
