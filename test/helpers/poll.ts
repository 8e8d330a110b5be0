import { setTimeout as sleep } from 'node:timers/promises'

// Waiting for state that settles in the background (a list refresh, a cancelled upstream
// request, a reload): poll with a deadline, never a fixed sleep. `pollUntil` returns the
// last value read, so the caller asserts on it and a timeout fails with the real value
// in the message; `until` throws naming what it waited for. Deadlines are generous: CPU
// is shared, and a deadline only costs time when the test fails anyway.
export async function pollUntil<T> (read: () => T | Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000, everyMs = 20): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (done(value) || Date.now() >= deadline) return value
    await sleep(everyMs)
  }
}

/** Resolves once `fn` holds; throws "timed out waiting for <what>" after `timeoutMs`. */
export async function until (what: string, fn: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  if (!await pollUntil(fn, ok => ok, timeoutMs)) throw new Error(`timed out waiting for ${what} (${timeoutMs} ms)`)
}

/** The first defined value `fn` gives; throws after `timeoutMs`. */
export async function eventually<T> (what: string, fn: () => T | undefined | Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const v = await pollUntil(fn, x => x !== undefined, timeoutMs)
  if (v === undefined) throw new Error(`timed out waiting for ${what} (${timeoutMs} ms)`)
  return v
}
