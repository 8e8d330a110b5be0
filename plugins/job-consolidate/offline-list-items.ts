// Whether an item of a first-person list ("I love pottery and live music", "I'm learning
// German") names a thing to remember. The offline extractor's `list` patterns read items up
// to a stop word, so what they catch is often a piece of a clause rather than a thing.

/** Nouns that, after a bare "the", point back at what was being talked about rather than name a thing ("I love the idea"). */
const POINTING = /^the (idea|thought|acting|colou?r|texture|tech|energy|freedom|connection|way|vibes?|feel|feeling|atmosphere|look|sound|fact|concept|message|details?|effects?|result)\b/i

/**
 * True when `item` names something: not a pronoun alone, not a clause ("when you give me
 * tips", "skill is awesome", "connection it brings", "I've actually been wanting"), not a
 * phrase left dangling ("having some of"), a verb cut from its object ("I love going| on
 * road trips": `cutShort`, the list went on past a stop word), an infinitive with no object
 * ("to help"), a thing pointed at ("this series", "their work", "the idea"), an amount
 * ("learning a ton"), a verb where the thing should be ("makes writing more fun") or people
 * named only as "them" ("holding them"). On LoCoMo's dev conversations the last kinds were
 * two thirds of the `likes` facts matching no observation (docs/benchmarks.md).
 */
export function namesAThing (item: string, cutShort: boolean): boolean {
  if (item === '' || /^(it|that|this|them|you|him|her|to|as well)$/i.test(item)) return false
  if (cutShort && /ing(?: up)?$/i.test(item)) return false
  if (/^to \S+$/i.test(item) || /^to just\b/i.test(item) || /^(a ton|a lot|lots|so much|a bit)$/i.test(item)) return false
  if (/^(this|that|these|those|his|their|its|our|every|each|makes)\b/i.test(item) || POINTING.test(item)) return false
  // The listener, the speaker, a contraction or a verb of its own: a clause, not a thing.
  if (/\b(you|your|me|my|myself|I|I've|I'm|I'd|I'll|that's|that'll|it's|it|them|but|when|how|what|is|are|was|were|am)\b/i.test(item)) return false
  return !/\b(of|to|for|with|the|a|an|and|some|about)$/i.test(item)
}
