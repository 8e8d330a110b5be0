// Waiting for a model: a request waits for a load in progress at most `waitMs`, then gets
// a 503 that says how far the load is; the load itself goes on for the next request.
import { type LazyModel, ModelUnavailableError } from '@agentd/sdk/kits/models'
import { TranslateErrors } from './errors.ts'
import { TIMED_OUT, within } from '@agentd/sdk'

export async function awaitModel<T> (holder: LazyModel<T>, waitMs: number): Promise<T> {
  let outcome: T | typeof TIMED_OUT
  try {
    outcome = await within(holder.get(), waitMs)
  } catch (err) {
    if (err instanceof ModelUnavailableError) throw new TranslateErrors.UNAVAILABLE(err.message)
    throw err
  }
  if (outcome !== TIMED_OUT) return outcome
  const err = new TranslateErrors.LOADING(`The translation model ${holder.model} is still loading (${holder.status().progress ?? 0}%); retry in a minute. GET /api/health shows the progress.`)
  throw Object.assign(err, { retryAfter: 30 })
}
