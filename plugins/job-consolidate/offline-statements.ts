// What people say about themselves beyond the attribute patterns: "I went to a LGBTQ
// support group yesterday", "I'm starting a pottery class", "I painted a sunset last year".
// Real conversations (LoCoMo's observations, bench/locomo-extraction.bench.ts) are mostly
// such events and plans, which the patterns (where someone works, lives, who their sister
// is) never read. Each first-person clause with a verb becomes one `statement` fact: the
// clause in the third person ("went to a LGBTQ support group yesterday"), its claim
// "<subject> went to ...". Kept out: clauses about the listener ("I'm so proud of you"),
// feelings and opinions with nothing to remember ("I think so", "I love it"), short ones.
import type { Nlp } from '@agentd/sdk/kits/memory'
import { STOPWORDS } from '@agentd/sdk/kits/recall'

export const STATEMENT = 'statement'

export interface Statement { object: string, tense: 'current' | 'past' | 'future' }

const ADVERBS = '(?:(?:just|recently|finally|really|also|actually|still|even|already|never|always|usually|often|sometimes|definitely|totally|kinda|currently|now|mostly|truly|absolutely|especially|ever|once|again|only) )*'
// "I" and what follows it to the end of the clause (a conjunction that starts a new subject ends it).
const LEADING_ADVERBS = new RegExp(`^${ADVERBS}`)
const CLAUSE = new RegExp(`(?:^|[,;:]\\s+|\\b(?:[Aa]nd|[Bb]ut|[Ss]o|because|since|when|while|as|then)\\s+)I((?:'m|'ve|'ll|'d)?) (${ADVERBS})([a-z][a-z'-]*)([^.;!?]*)`, 'g')
const AUX: Record<string, [string, Statement['tense']]> = {
  "'m": ['is', 'current'], am: ['is', 'current'], "'ve": ['has', 'past'], have: ['has', 'current'], was: ['was', 'past'], had: ['had', 'past'],
  "'ll": ['will', 'future'], will: ['will', 'future'], "'d": ['would', 'future'], can: ['can', 'current'], could: ['could', 'past'],
  "don't": ["doesn't", 'current'], "didn't": ["didn't", 'past'], "can't": ["can't", 'current'], "haven't": ["hasn't", 'past'], "wasn't": ["wasn't", 'past'], "won't": ["won't", 'future'],
  // Modals stay as they are: conjugated as verbs, "I couldn't play" became "coulds play" (the negation lost).
  "couldn't": ["couldn't", 'past'], "wouldn't": ["wouldn't", 'future'], "shouldn't": ["shouldn't", 'current'], "hadn't": ["hadn't", 'past'],
  should: ['should', 'current'], might: ['might', 'future'], must: ['must', 'current'],
}
/** Verbs whose clause holds an opinion or a reply rather than something to remember. */
const EMPTY_VERBS = new Set(['think', 'guess', 'suppose', 'hope', 'bet', 'mean', 'know', 'agree', 'see', 'wish', 'wonder', 'believe', 'appreciate', 'understand', 'remember', 'get', 'glad', 'sorry', 'sure', 'thankful', 'grateful', 'happy', 'feel', 'felt', 'can', 'would', 'could', 'love', 'like', 'imagine', 'sort', 'kind'])
const PRONOUNS: Array<[RegExp, string]> = [[/\bmy\b/gi, 'their'], [/\bmine\b/gi, 'theirs'], [/\bmyself\b/gi, 'themself'], [/\bme\b/g, 'them'], [/\bI'm\b/g, 'they are'], [/\bI've\b/g, 'they have'], [/\bI\b/g, 'they']]
const MIN_WORDS = 4
/** "since we last talked": it dates the news and is none of it. */
const SINCE_LAST = '\\bsince we last (?:talked|chatted|spoke)\\b'
const SINCE_WE_TALKED = new RegExp(SINCE_LAST, 'gi')
/** Words that say nothing on their own: a clause of only these and stop words ("is not gonna forget a second of it") is kept out. */
const VAGUE = new Set(['gonna', 'wanna', 'gotta', 'really', 'sure', 'lot', 'much', 'thing', 'things', 'something', 'anything', 'everything', 'way', 'time', 'bit', 'kind', 'always', 'never', 'ever', 'even', 'still', 'just', 'also', 'totally', 'definitely', 'get', 'got', 'going', 'make', 'made', 'keep', 'let', 'one', 'ones', 'stuff', 'thought', 'sure', 'again', 'lately', 'right', 'yeah', 'yes', 'okay', 'ok', 'promise', 'see', 'try', 'give', 'take', 'put', 'find', 'found', 'happy', 'excited', 'glad', 'great', 'good', 'awesome', 'amazing', 'cool', 'fun', 'nice', 'stoked', 'pumped', 'thrilled', 'hard', 'tough'])

/** At least `min` words that carry content: a place, a thing, an activity, a name. */
export function saysSomething (text: string, min = 2): boolean {
  let n = 0
  for (const w of text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? []) {
    if (w.length < 3 || STOPWORDS.has(w) || VAGUE.has(w) || /'/.test(w)) continue
    if (++n >= min) return true
  }
  return false
}

/** The first-person clauses of a (normalised) sentence as third-person verb phrases. */
export function statements (nlp: Nlp, sentence: string): Statement[] {
  const out: Statement[] = []
  CLAUSE.lastIndex = 0
  for (let m = CLAUSE.exec(sentence); m !== null; m = CLAUSE.exec(sentence)) {
    const [, contraction, adverbs, verb, rest] = m
    const body = `${adverbs}${verb}${rest}`.trim()
    if (/\byou(?:r|rs|'re|'ve|'ll)?\b/i.test(body)) continue
    const aux = AUX[contraction !== '' ? contraction : verb.toLowerCase()]
    let phrase: string
    let tense: Statement['tense']
    if (aux !== undefined) {
      // "I'm excited" -> "is excited"; "I have two kids" -> "has two kids"; "I'll go" -> "will go".
      const tail = contraction !== '' ? body : rest.trim()
      const next = (contraction !== '' ? verb : tail.replace(LEADING_ADVERBS, '').split(/\s+/)[0] ?? '').toLowerCase()
      if (EMPTY_VERBS.has(next)) continue
      tense = aux[1] === 'current' && /^going to\b/.test(tail) ? 'future' : aux[1]
      phrase = contraction !== '' ? `${aux[0]} ${tail}` : `${adverbs}${aux[0]} ${tail}`
    } else {
      if (EMPTY_VERBS.has(verb.toLowerCase())) continue
      const doc = nlp(`I ${verb}`)
      if (!doc.has('#Verb')) continue
      if (doc.has('#PastTense')) { phrase = body; tense = 'past' } else {
        const forms = nlp(verb).verbs().conjugate()[0] as { PresentTense?: string } | undefined
        if (forms?.PresentTense === undefined) continue
        phrase = `${adverbs}${forms.PresentTense}${rest}`.trim()
        tense = 'current'
      }
    }
    let object = phrase.replace(/[,\s]+$/, '')
    for (const [re, to] of PRONOUNS) object = object.replace(re, to)
    // "since we last talked" dates the news and is none of it ("has been keeping busy since we last talked").
    if (object.split(/\s+/).length < MIN_WORDS || !saysSomething(object.replace(SINCE_WE_TALKED, ''), 3)) continue
    out.push({ object, tense })
  }
  return out
}

/**
 * Sentences about oneself with no "I" clause: "my favorite treat is this raspberry tart",
 * "the support group has made me feel accepted", "we celebrated at a restaurant". Kept as
 * said (first person) as a `remark` fact; its claim names the speaker in their place
 * (inThirdPerson). Not questions, not about the listener, and saying something.
 */
export const REMARK = 'remark'
const OPENER = /^(?:(?:yeah|yes|yep|wow|whoa|oh|ohh|hey|hi|thanks|thank you|well|so|haha|lol|omg|ah|aw+|ok|okay|sure|totally|exactly|true|cool|awesome|nice|great|right)\b[^,.!?]{0,20}[,!]\s*)+/i
const OWN = /\b(?:my|me|mine|myself)\b/i
const MIN_REMARK_WORDS = 5
const DEICTIC = /^(?:it|it's|that|that's|this|those|these|they|they're|he|she|there)\b/i
/** Showing or thanking, not telling: "check out my painting", "here's a pic of my family", "thanks for the recommendation". */
const SHOWING = /^(?:and |also |plus )?(?:check\b|look at|take a look|here's|here is|here are|here (?:ya|you) go)\b|\b(?:thanks|thank you|come see)\b/i
/** A reply to the listener's news ("glad my advice helped"), or news announced with none in it ("something exciting happened recently for me"). */
const REPLY_OR_EMPTY = new RegExp(`^glad\\b|^(?:something|lots of stuff|a lot|quite a week)\\b.*\\bhappen|${SINCE_LAST}`, 'i')
/** "Interesting things have happened since we last talked - I joined a travel club": the news is after the dash. */
const NEWS_LEAD = new RegExp(`^[^-]*${SINCE_LAST}[^-]*\\s[-–—]\\s+`, 'i')

export function remark (sentence: string): string | undefined {
  const s = sentence.trim().replace(OPENER, '').replace(NEWS_LEAD, '').replace(/[.!\s]+$/, '')
  if (s.endsWith('?') || !OWN.test(s) || /\byou(?:r|rs|'re|'ve|'ll)?\b/i.test(s)) return undefined
  // "It gave me the upper hand": what "it" is was said before; alone the remark says little.
  if (DEICTIC.test(s) || SHOWING.test(s) || REPLY_OR_EMPTY.test(s) || s.split(/\s+/).length < MIN_REMARK_WORDS || !saysSomething(s, 3)) return undefined
  return s
}

/** A first-person text about `subject` in the third person: "my" -> "Caroline's", "me" -> "Caroline", "we" -> "Caroline and others". */
export function inThirdPerson (subject: string, possessive: string, text: string): string {
  const out = text
    .replace(/\bI'm\b/g, `${subject} is`).replace(/\bI've\b/g, `${subject} has`).replace(/\bI'll\b/g, `${subject} will`).replace(/\bI\b/g, subject)
    .replace(/\b(?:my|mine)\b/gi, possessive).replace(/\bmyself\b/gi, subject).replace(/\bme\b/gi, subject)
    .replace(/^we're\b/i, `${subject} and others are`).replace(/^we've\b/i, `${subject} and others have`).replace(/^we\b/i, `${subject} and others`).replace(/\bour\b/gi, 'their').replace(/\bus\b/gi, 'them')
  return out.charAt(0).toUpperCase() + out.slice(1)
}
