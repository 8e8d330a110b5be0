// Small deterministic unit vectors for store tests.
export function unit (v: number[]): number[] {
  const n = Math.hypot(...v)
  return v.map(x => x / n)
}
/** A unit vector in `dims` dimensions pointing mostly along `axis`, nudged by `nudge` along axis+1. */
export function axis (dims: number, a: number, nudge = 0): number[] {
  const v = new Array<number>(dims).fill(0)
  v[a % dims] = 1
  v[(a + 1) % dims] += nudge
  return unit(v)
}
