// Capped exponential backoff for reconnecting a server that died: initial, 2x, 4x, ...
// up to the cap, with up to 20% jitter so several servers do not retry in lockstep.

export interface BackoffOptions { initialMs: number, maxMs: number }

export function backoffDelay (attempt: number, opts: BackoffOptions, random: () => number = Math.random): number {
  const base = Math.min(opts.maxMs, opts.initialMs * 2 ** Math.max(0, Math.min(attempt - 1, 30)))
  return Math.min(opts.maxMs, Math.round(base * (1 + 0.2 * random())))
}
