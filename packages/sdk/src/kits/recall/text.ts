// Words of a query as recall techniques and stores see them: letters and digits of any
// script, lower case; function words (English) carry no topic and are left out of keyword
// matching, so "What is the name of the dog" searches for "name" and "dog".

export function words (text: string): string[] {
  return text.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
}

export const STOPWORDS: ReadonlySet<string> = new Set(('a about above after again against all am an and any are as at be because been before being below between both but by ' +
  'can could did do does doing down during each few for from further had has have having he her here hers herself him himself his how i if in into is it its itself ' +
  'just me more most my myself no nor not now of off on once only or other our ours ourselves out over own same she should so some such than that the their theirs them ' +
  'themselves then there these they this those through to too under until up very was we were what when where which while who whom why will with would you your yours ' +
  'yourself yourselves s t d ll m re ve also get got let lets much many one ok okay oh yes yeah well really still even back way like just will shall may might must').split(' '))

/** The words that say what a query is about: no function words; the whole word list when nothing else is left. */
export function contentWords (text: string): string[] {
  const all = words(text)
  const kept = all.filter(w => !STOPWORDS.has(w))
  return kept.length > 0 ? kept : all
}

/**
 * Whether the query asks for what is recent (then recency weighs in the ranking; otherwise
 * it only breaks ties). "When did..." asks for a date, not for the newest turn.
 */
export function asksAboutRecency (text: string): boolean {
  return /\b(recent|recently|lately|latest|newest|last time|most recent|so far|these days|currently|right now|nowadays|today|yesterday|this (week|month|morning|evening))\b/i.test(text)
}
