// Past or present in recall: superseded facts answer only questions about how things were,
// and come after the facts that hold now.

/** A question about how things were ("where did I use to work?", "before", "previously"). */
export function asksAboutPast (query: string): boolean {
  return /\b(used to|use to|previous(ly)?|formerly|former|before|earlier|in the past|past|no longer|anymore|any more|did i|was i|originally|history|old (job|address|city|employer)|last (job|year|time))\b/i.test(query)
}

/**
 * Facts for the bundle: current ones first (in their order), then superseded ones, and
 * superseded ones only when the query asks about the past (a technique may return them anyway).
 */
export function orderFacts<F extends { superseded_at?: string | null }> (facts: F[], query: string): F[] {
  const isOld = (f: F): boolean => f.superseded_at !== null && f.superseded_at !== undefined
  const current = facts.filter(f => !isOld(f))
  return asksAboutPast(query) ? [...current, ...facts.filter(isOld)] : current
}
