/** Milliseconds since `t0` (a `performance.now()`), to two decimals: a recall part's `timings_ms` entry. */
export const elapsedMs = (t0: number): number => Math.round((performance.now() - t0) * 100) / 100
