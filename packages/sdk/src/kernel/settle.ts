// Waiting on a promise without being held by it: for at most a time (a hung deactivate,
// drain, store or upstream must not hold up the caller), or until a signal aborts (a tool
// or model call that ignores its signal must not hold a cancelled request). The promise
// itself goes on; a rejection it gives after the caller stopped waiting is ignored here,
// never an unhandled rejection. The timer is cleared as soon as the promise settles, so a
// steady stream of calls does not pile up live timers (as AbortSignal.timeout would).

/** What `within` gives when the time ran out first. */
export const TIMED_OUT: unique symbol = Symbol('timed out')

export interface WithinOptions {
  /** Let the process exit while waiting (a background check at start-up, say). */
  unref?: boolean
}

/** `p`'s value, or TIMED_OUT if it has not settled within `ms`. A rejection before then is thrown. */
export async function within<T> (p: Promise<T>, ms: number, opts: WithinOptions = {}): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<typeof TIMED_OUT>(resolve => {
    timer = setTimeout(() => { resolve(TIMED_OUT) }, ms)
    if (opts.unref === true) timer.unref()
  })
  try {
    return await Promise.race([p, timeout])
  } finally {
    clearTimeout(timer)
    p.catch(() => undefined)
  }
}

/** `p`'s value; rejects with the signal's reason as soon as it aborts, whatever `p` does. */
export async function raceAbort<T> (p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) { p.catch(() => undefined); throw signal.reason }
  let onAbort: (() => void) | undefined
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => { reject(signal.reason) }
    signal.addEventListener('abort', onAbort, { once: true })
  })
  try {
    return await Promise.race([p, aborted])
  } finally {
    p.catch(() => undefined)
    if (onAbort !== undefined) signal.removeEventListener('abort', onAbort)
  }
}
