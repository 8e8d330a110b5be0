// compromise with compromise-dates, loaded on first use: importing it takes a noticeable
// moment, which a server start (and every test that starts one) should not pay when no
// consolidation runs.
import type nlpType from 'compromise'

export type Nlp = typeof nlpType

let loading: Promise<Nlp> | undefined

export async function loadNlp (): Promise<Nlp> {
  loading ??= Promise.all([import('compromise'), import('compromise-dates')]).then(([c, d]) => {
    c.default.plugin(d.default)
    return c.default
  })
  return await loading
}
