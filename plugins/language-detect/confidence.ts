// Confidence: the chance the answer is right, as a fraction. The backend's probability
// is a good ranking but says the same ~0.98 for 40 characters as for 400, while the
// answer on 40 characters is wrong several times as often; so the probability is
// discounted by how much text there was, and much more when the answer had to be forced
// into the twenty languages.
import type { Restricted } from './restrict.ts'

export interface ConfidenceInput {
  /** The backend's probability for its answer. */
  probability: number
  reliable: boolean
  /** Letters, weighted by script (see script.ts). */
  weight: number
  restricted: Restricted
  /** True when the script alone leaves one candidate (Greek, Thai, kana...). */
  scriptDecides: boolean
}

// Constants fitted (grid search, least expected calibration error) on the odd-numbered
// paragraphs of the UDHR in the twenty languages (udhr-snippets.ts, part `odd`) cut to
// ~15, ~40 and ~100 characters; the accuracy test checks the calibration on the
// even-numbered paragraphs only, which the fit never saw. What the data says: answers
// cld3 marks unreliable are right ~74% of the time; answers forced into the twenty are
// right ~58% of the time overall, ~40% when the cues barely separate the candidates and
// ~88% when they clearly do.

/** Letters (weighted) over which the short-text discount fades. */
export const LENGTH_SCALE = 12
/** The discount at zero length. */
export const SHORT_PENALTY = 0.06
export const UNRELIABLE_FACTOR = 0.9
export const FORCED_FLOOR = 0.45
export const FORCED_SLOPE = 1.5
/** A script none of the twenty uses (Hangul, Hebrew...): the answer is a formality. */
export const UNKNOWN_SCRIPT = 0.05

export function calibrate (i: ConfidenceInput): number {
  const length = 1 - SHORT_PENALTY * Math.exp(-i.weight / LENGTH_SCALE)
  let c: number
  if (!i.restricted.forced) c = i.probability * length * (i.reliable || i.scriptDecides ? 1 : UNRELIABLE_FACTOR)
  else if (!i.restricted.scriptKnown) c = UNKNOWN_SCRIPT
  else c = Math.min(0.95, FORCED_FLOOR + FORCED_SLOPE * i.restricted.certainty) * length
  return Math.max(0, Math.min(1, c))
}
