// The extractor that needs no model: `compromise` finds and types named things (people,
// places, organisations; `compromise-dates` keeps dates out of names), and patterns read
// first-person statements ("my name is", "I work at", "I live in", "my sister Anna ...",
// "I like ...") and simple third-person ones about the people just named ("she lives in").
// Small talk, questions and requests are skipped before any pattern runs (junk.ts).
// Quality is measured on a labelled set by bench/extraction.bench.ts. The server runs it in
// a worker thread (offline-thread.ts): ~50k characters are seconds of CPU.
import { loadNlp, type Nlp } from '@agentd/sdk/kits/memory'
import { USER, buildClaim, type EntityType, type Extraction, type ExtractionTurn, type Extractor, type ExtractedFact } from './extraction.ts'
import { isSmallTalk, sentences, stripRecalledMemory } from './junk.ts'
import { REMARK, STATEMENT, remark, statements } from './offline-statements.ts'
import { namesAThing } from './offline-list-items.ts'
import { NAME, STOP, LOWER, ORG, END, RELATIONS, PETS, DIETS, NOT_TITLES, NOT_NAMES } from './offline-words.ts'

type Tense = ExtractedFact['temporal_context']

// ---- building blocks ---------------------------------------------------------------------

const REL_PREDICATE = (r: string): string => {
  const k = r.toLowerCase()
  if (k === 'mom' || k === 'mum') return 'mother'
  if (k === 'dad') return 'father'
  if (k.startsWith('fianc')) return 'fiance'
  return k.replace(/\s+/g, '_')
}

const cleanName = (s: string): string => {
  let n = s.trim().replace(/[,;:!?]+$/, '')
  // A final period belongs to an abbreviation ("St.") only when another word follows.
  n = n.replace(/\.+$/, '')
  return n.replace(/'s$/, '')
}
const cleanObject = (s: string): string => s.trim().replace(/^(a bit of|a little|some|a lot of|lots of|fluent|basic)\s+/i, '').replace(/[,.;:!?]+$/, '').trim()

function certainty (s: string): number {
  if (/\b(pretty sure|fairly sure|quite sure)\b/i.test(s)) return 0.75
  if (/\b(i think|maybe|perhaps|probably|i guess|i believe|might|not sure|possibly|kind of|sort of)\b/i.test(s)) return 0.6
  if (/\b(definitely|certainly|actually|for sure|absolutely|i meant|i was wrong)\b/i.test(s)) return 0.95
  return 0.9
}

/** "I am" -> "I'm" and friends, curly quotes straightened: fewer spellings for the patterns. */
function normalise (s: string): string {
  return s.replace(/[’‘]/g, "'").replace(/\bI am\b/g, "I'm").replace(/\bI have been\b/g, "I've been").replace(/\bI will\b/g, "I'll")
    .replace(/\bdo not\b/g, "don't").replace(/\bcan not\b|\bcannot\b/g, "can't").replace(/\s+/g, ' ').trim()
}

// ---- the accumulator ------------------------------------------------------------------------

class Collector {
  readonly entities = new Map<string, { name: string, type: EntityType, aliases: Set<string>, description: string | null, captured: boolean }>()
  readonly facts = new Map<string, ExtractedFact>()
  readonly relationships = new Map<string, { source: string, target: string, type: string, confidence: number }>()

  entity (name: string, type: EntityType, opts: { captured?: boolean, description?: string } = {}): string {
    const key = name.toLowerCase()
    const had = this.entities.get(key)
    if (had === undefined) this.entities.set(key, { name, type, aliases: new Set(), description: opts.description ?? null, captured: opts.captured === true })
    else if (opts.captured === true && !had.captured) { had.type = type; had.captured = true; had.description ??= opts.description ?? null }
    return this.entities.get(key)?.name ?? name
  }

  fact (turn: number, subject: string, predicate: string, object: string, tense: Tense, confidence: number, objectIsEntity: boolean): void {
    const obj = object.trim()
    if (obj === '' || subject.trim() === '') return
    if (subject === USER) this.entity(USER, 'Person', { captured: true, description: 'the person talking to the agent' })
    const claim = buildClaim(subject, predicate, obj, tense)
    const key = claim.toLowerCase()
    const entities = [subject, ...(objectIsEntity ? [obj] : [])]
    const had = this.facts.get(key)
    if (had !== undefined) { had.confidence = Math.max(had.confidence, confidence); return }
    this.facts.set(key, { subject, predicate, object: obj, claim, confidence, temporal_context: tense, turn, entities })
    if (objectIsEntity && tense === 'current') {
      this.relationships.set(`${subject}|${predicate}|${obj}`.toLowerCase(), { source: subject, target: obj, type: predicate, confidence })
    }
  }

  result (): Extraction {
    return {
      entities: [...this.entities.values()].map(e => ({ name: e.name, type: e.type, aliases: [...e.aliases], description: e.description })),
      facts: [...this.facts.values()],
      relationships: [...this.relationships.values()],
    }
  }
}

// ---- one sentence ---------------------------------------------------------------------------

interface Ctx { nlp: Nlp, c: Collector, turn: number, conf: number, people: string[] }

const re = (src: string, flags = 'gu'): RegExp => new RegExp(src, flags)
const orgOf = (m: RegExpExecArray, at: number): { name: string, isEntity: boolean } | undefined => {
  const called = m[at]; const proper = m[at + 1]; const lower = m[at + 2]
  if (called !== undefined) return { name: cleanName(called), isEntity: true }
  if (proper !== undefined) return { name: cleanName(proper), isEntity: true }
  if (lower !== undefined) return { name: lower.trim(), isEntity: false }
  return undefined
}

function each (s: string, pattern: RegExp, fn: (m: RegExpExecArray) => void): void {
  pattern.lastIndex = 0
  for (let m = pattern.exec(s); m !== null; m = pattern.exec(s)) fn(m)
}

function employer (x: Ctx, s: string, subject: string): void {
  const subj = subject === USER ? "I(?:'m)?" : subject.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const rules: Array<[string, Tense]> = [
    [`\\b${subj} (?:currently |now |still |actually |also |really )?(?:works?|working) (?:at|for) ${ORG}`, 'current'],
    [`\\b${subj} (?:'m )?(?:recently |just |now )?(?:joined|started (?:working |to work )?(?:at|for)|got a (?:new )?job (?:at|with)|started a (?:new )?job (?:at|with)|employed (?:at|by)) ${ORG}`, 'current'],
    [`\\b${subj} (?:used to work|worked|was working|have worked|'ve worked) (?:at|for) ${ORG}`, 'past'],
    [`\\b${subj} (?:don't|do not|no longer|doesn't|does not) work (?:at|for) ${ORG}`, 'past'],
    [`\\b${subj} (?:quit|left) (?:my |his |her )?(?:job|position|role)? ?(?:at|with)? ?${ORG}`, 'past'],
    [`\\b${subj}(?:'ll| will) (?:be )?(?:start(?:ing)?|join(?:ing)?)(?: a new job| work(?:ing)?)? (?:at|with)?\\s*${ORG}`, 'future'],
    [`\\b${subj} (?:'m )?(?:going to|about to) (?:join|start at|work at|start working at) ${ORG}`, 'future'],
  ]
  for (const [src, tense] of rules) {
    each(s, re(src + END), m => {
      const o = orgOf(m, 1)
      if (o === undefined || NOT_NAMES.has(o.name.toLowerCase())) return
      if (o.isEntity) x.c.entity(o.name, 'Organization', { captured: true })
      x.c.fact(x.turn, subject, 'works_at', o.name, tense, x.conf, o.isEntity)
    })
  }
}

function title (x: Ctx, s: string, subject: string, src: string, tense: Tense): void {
  each(s, re(`${src}(?:a|an) (${LOWER})${END}(?:\\s+at\\s+${ORG})?`), m => {
    const t = m[1].trim()
    // Not a job: a phrase cut at its preposition ("I am a part of", "a mix of excited").
    if (NOT_TITLES.has(t.split(' ')[0]) || re(`^(${DIETS})$`, 'i').test(t) || /\bof\b/.test(t)) return
    x.c.fact(x.turn, subject, 'job_title', t, tense, x.conf, false)
    const o = orgOf(m, 2)
    if (o !== undefined && o.isEntity) {
      x.c.entity(o.name, 'Organization', { captured: true })
      x.c.fact(x.turn, subject, 'works_at', o.name, tense, x.conf, true)
    }
  })
}

function place (x: Ctx, s: string, subject: string, src: string, predicate: string, tense: Tense): void {
  each(s, re(`${src} (${NAME})`), m => {
    const name = cleanName(m[1])
    if (NOT_NAMES.has(name.toLowerCase())) return
    x.c.entity(name, 'Location', { captured: true })
    x.c.fact(x.turn, subject, predicate, name, tense, x.conf, true)
  })
}

function list (x: Ctx, s: string, src: string, predicate: string): void {
  // Items joined by commas and "and", each a few words; a new clause ("and I ...") ends the list.
  const next = '(?!(?:I|I\'m|he|she|we|they|my|it)\\b)'
  each(s, re(`${src} ([\\p{L}'-]+(?:(?:,\\s*(?:and\\s+)?${next}|\\s+and\\s+${next}|\\s+(?!${STOP}\\b))[\\p{L}'-]+)*)`), m => {
    const parts = m[1].split(/\s*,\s*(?:and\s+)?|\s+and\s+/)
    // What follows the list: a word there means its last item was cut where a stop word began ("going| on road trips").
    const cut = /^\s+[\p{L}]/u.test(s.slice(m.index + m[0].length))
    for (const [i, part] of parts.entries()) {
      const obj = cleanObject(part)
      if (!namesAThing(obj, cut && i === parts.length - 1)) continue
      const proper = /^[A-Z]/.test(obj) && !NOT_NAMES.has(obj.toLowerCase())
      if (proper) x.c.entity(obj, 'Concept')
      x.c.fact(x.turn, USER, predicate, obj, 'current', x.conf, proper)
    }
  })
}

function firstPerson (x: Ctx, s: string): void {
  const U = USER
  // Name.
  each(s, re(`\\b(?:[Mm]y name(?:'s| is)|[Cc]all me|I'm called)(?: actually| really)? (${NAME})`), m => {
    const name = cleanName(m[1])
    x.c.fact(x.turn, U, 'name', name, 'current', x.conf, false)
    x.c.entities.get(USER.toLowerCase())?.aliases.add(name)
  })
  employer(x, s, U)
  // Job titles.
  title(x, s, U, "\\bI'm (?:currently |now |actually |also )?", 'current')
  title(x, s, U, "\\bI (?:work|am working|'m working) (?:at|for) [^,.;]*?\\bas ", 'current')
  title(x, s, U, '\\bI work as ', 'current')
  title(x, s, U, "\\b[Mm]y job is (?:being )?", 'current')
  title(x, s, U, '\\bI (?:used to be|was) ', 'past')
  // Places.
  place(x, s, U, "\\bI(?: currently| now| still| actually)?(?: live|'m living|'m based|'ve been living| have been living| reside) in", 'lives_in', 'current')
  place(x, s, U, '\\bI (?:recently |just |finally )?(?:moved|relocated) (?:back )?to', 'lives_in', 'current')
  place(x, s, U, "\\bI(?: used to live| lived| was living|'ve lived| have lived) in", 'lives_in', 'past')
  place(x, s, U, "\\bI (?:don't|no longer) live in", 'lives_in', 'past')
  place(x, s, U, "\\bI(?:'m| am) (?:moving|planning to move|going to move|about to move|relocating) to", 'lives_in', 'future')
  place(x, s, U, "\\bI(?:'ll| will) (?:be )?mov(?:e|ing) to", 'lives_in', 'future')
  place(x, s, U, "\\bI(?:'m (?:originally )?| (?:originally )?come )from", 'from', 'current')
  place(x, s, U, '\\bI grew up in', 'grew_up_in', 'past')
  place(x, s, U, '\\bI was born (?:in \\d{4} )?in', 'born_in', 'past')
  each(s, /\bI was born in (\d{4})\b/g, m => { x.c.fact(x.turn, U, 'birth_year', m[1], 'past', x.conf, false) })
  // Age, diet, allergies.
  each(s, /\bI'm (\d{1,3})(?: years old| years of age| yo)?(?=\s*[,.;!]|\s*$|\s+and\b)/g, m => { x.c.fact(x.turn, U, 'age', m[1], 'current', x.conf, false) })
  each(s, re(`\\bI'm (?:a |an )?(?:strict |now )?(${DIETS})\\b`), m => { x.c.fact(x.turn, U, 'diet', m[1].toLowerCase(), 'current', x.conf, false) })
  each(s, re(`\\bI'm allergic to (${LOWER})${END}`), m => { x.c.fact(x.turn, U, 'allergic_to', m[1].trim(), 'current', x.conf, false) })
  // Study, teaching, hobbies.
  each(s, re(`\\bI(?:'m| am) studying (${LOWER})${END}(?:\\s+at\\s+${ORG})?`), m => {
    x.c.fact(x.turn, U, 'studies', m[1].trim(), 'current', x.conf, false)
    const o = orgOf(m, 2)
    if (o !== undefined) { if (o.isEntity) x.c.entity(o.name, 'Organization', { captured: true }); x.c.fact(x.turn, U, 'studies_at', o.name, 'current', x.conf, o.isEntity) }
  })
  each(s, re(`\\bI (?:study|studied) (?:${LOWER} )?at ${ORG}${END}`), m => {
    const o = orgOf(m, 1)
    if (o !== undefined) { if (o.isEntity) x.c.entity(o.name, 'Organization', { captured: true }); x.c.fact(x.turn, U, 'studies_at', o.name, /studied/.test(m[0]) ? 'past' : 'current', x.conf, o.isEntity) }
  })
  each(s, re(`\\bI teach (${LOWER})${END}(?:\\s+at\\s+${ORG})?`), m => {
    x.c.fact(x.turn, U, 'teaches', m[1].trim(), 'current', x.conf, false)
    const o = orgOf(m, 2)
    if (o !== undefined) { if (o.isEntity) x.c.entity(o.name, 'Organization', { captured: true }); x.c.fact(x.turn, U, 'works_at', o.name, 'current', x.conf, o.isEntity) }
  })
  each(s, re(`\\bI drive (?:a |an )?(${NAME}|${LOWER})`), m => {
    const name = cleanName(m[1])
    const proper = /^[A-Z]/.test(name)
    if (proper) x.c.entity(name, 'Concept', { captured: true })
    x.c.fact(x.turn, U, 'drives', name, 'current', x.conf, proper)
  })
  list(x, s, "\\bI (?:really |also |absolutely |just )?(?:like|love|enjoy|adore)", 'likes')
  list(x, s, "\\bI'm (?:a (?:big |huge )?fan of|really into|into)", 'likes')
  list(x, s, "\\bI (?:really )?(?:hate|dislike|detest|can't stand|don't (?:really )?like|don't enjoy)", 'dislikes')
  list(x, s, '\\bI (?:prefer)', 'prefers')
  list(x, s, '\\bI (?:speak|can speak)', 'speaks')
  list(x, s, "\\bI(?:'m| am) learning", 'learning')
  list(x, s, '\\bI play', 'plays')
  each(s, /\b[Mm]y favou?rite ([a-z]+) is (.+?)(?=\s*[,.;!]|\s*$)/g, m => {
    const obj = cleanName(m[2])
    const proper = /^[A-Z]/.test(obj)
    if (proper) x.c.entity(obj, 'Concept')
    x.c.fact(x.turn, U, `favourite_${m[1].toLowerCase()}`, obj, 'current', x.conf, proper)
  })
  // Pets.
  each(s, re(`\\bI (?:have|'ve got|own) (?:a|an|two|three) (${PETS})s? (?:named|called) (${NAME})`), m => { pet(x, cleanName(m[2])) })
  each(s, re(`\\b[Mm]y (?:${PETS}),? (${NAME})`), m => { pet(x, cleanName(m[1])) })
  each(s, re(`\\b[Mm]y (?:${PETS})(?:'s name)? is (?:called |named )?(${NAME})`), m => { pet(x, cleanName(m[1])) })
}

function pet (x: Ctx, name: string): void {
  if (NOT_NAMES.has(name.toLowerCase())) return
  x.c.entity(name, 'Animal', { captured: true, description: "the user's pet" })
  x.c.fact(x.turn, USER, 'has_pet', name, 'current', x.conf, true)
}

/** "my sister Anna", "my brother is called Tom", "Olivia is my girlfriend": the person, and the sentence with them named. */
function relatives (x: Ctx, s: string): string {
  let out = s
  const found = (rel: string, rawName: string): string => {
    const name = cleanName(rawName)
    if (NOT_NAMES.has(name.toLowerCase())) return rawName
    const p = REL_PREDICATE(rel)
    x.c.entity(name, 'Person', { captured: true, description: `the user's ${p.replace(/_/g, ' ')}` })
    x.c.fact(x.turn, USER, p, name, 'current', x.conf, true)
    x.people.push(name)
    return name
  }
  out = out.replace(re(`\\b[Mm]y (${RELATIONS})(?:'s name)? is (?:called |named )?(${NAME})`, 'gu'), (_all, rel: string, name: string) => found(rel, name))
  out = out.replace(re(`\\b[Mm]y (${RELATIONS}),? (${NAME}),?`, 'gu'), (_all, rel: string, name: string) => found(rel, name))
  out = out.replace(re(`\\b(${NAME}) is my (${RELATIONS})\\b`, 'gu'), (_all, name: string, rel: string) => found(rel, name))
  return out
}

function thirdPerson (x: Ctx, s: string): void {
  // "he"/"she" is the person named last in the turn.
  const last = x.people.at(-1)
  const text = last === undefined ? s : s.replace(/\b(he|she)\b(?!')/gi, last)
  for (const person of new Set(x.people)) {
    employer(x, text, person)
    const p = person.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    title(x, text, person, `\\b${p} (?:is|works as) `, 'current')
    place(x, text, person, `\\b${p} (?:currently |now |still )?(?:lives|is living|is based) in`, 'lives_in', 'current')
    place(x, text, person, `\\b${p} (?:moved|relocated) to`, 'lives_in', 'current')
  }
}

/** Named things the patterns did not type: compromise's people, places and organisations, then any other capitalised run. */
function namedThings (x: Ctx, s: string): void {
  const doc = x.nlp(s)
  const typed = new Map<string, EntityType>()
  const add = (names: string[], type: EntityType): void => {
    for (const raw of names) {
      // compromise keeps leading lowercase words ("sister Anna"): names start at a capital.
      const n = cleanName(raw.replace(/^(?:[a-z][\p{L}'-]*\s+)+/u, ''))
      if (n !== '' && /^[A-Z]/.test(n)) typed.set(n.toLowerCase(), type)
    }
  }
  add(doc.people().out('array') as string[], 'Person')
  add(doc.places().out('array') as string[], 'Location')
  add(doc.organizations().out('array') as string[], 'Organization')
  const runs: Array<{ name: string, index: number }> = []
  each(s, re(NAME, 'gu'), m => { runs.push({ name: cleanName(m[0]), index: m.index }) })
  const names = [...x.c.entities.values()].flatMap(e => [e.name, ...e.aliases].map(k => k.toLowerCase()))
  const known = (n: string): boolean => names.some(k => k === n.toLowerCase() || k.includes(n.toLowerCase()))
  for (const { name, index } of runs) {
    const words = name.split(/\s+/).filter(w => !NOT_NAMES.has(w.toLowerCase()))
    const n = words.join(' ')
    if (n === '' || known(n)) continue
    // A capital at the start of a sentence says nothing; keep it only when compromise knows the name.
    const initial = index === 0 || /[.!?:"]\s*$/.test(s.slice(0, index))
    const type = typed.get(n.toLowerCase()) ?? [...typed].find(([k]) => k.includes(n.toLowerCase()))?.[1]
    if (initial && type === undefined) continue
    // After "Mountain View, " a capitalised run is the region or country.
    const afterPlace = /\b(?:in|to|from) [A-Z][\p{L} ]*,\s*$/u.test(s.slice(0, index))
    x.c.entity(n, type ?? (afterPlace ? 'Location' : 'Concept'))
  }
}

function extractSentence (nlp: Nlp, c: Collector, turn: number, people: string[], sentence: string): void {
  const s = normalise(sentence)
  const x: Ctx = { nlp, c, turn, conf: certainty(s), people }
  const named = relatives(x, s)
  const known = c.facts.size
  firstPerson(x, named)
  // A sentence the patterns did not read: its first-person clauses as said (a little less certain).
  if (c.facts.size === known) for (const st of statements(nlp, named)) c.fact(turn, USER, STATEMENT, st.object, st.tense, Math.min(x.conf, 0.7), false)
  const said = c.facts.size === known ? remark(named) : undefined
  if (said !== undefined) c.fact(turn, USER, REMARK, said, 'current', Math.min(x.conf, 0.6), false)
  thirdPerson(x, named)
  namedThings(x, s)
}

/** The extraction itself, synchronous: CPU-bound (~2 ms a sentence), so the server runs it in a worker (offline-thread.ts). */
export function extractOffline (nlp: Nlp, turns: ExtractionTurn[]): Extraction {
  const c = new Collector()
  turns.forEach((t, i) => {
    const people: string[] = []
    for (const s of sentences(stripRecalledMemory(t.content))) {
      if (isSmallTalk(s)) continue
      extractSentence(nlp, c, i, people, s)
    }
  })
  return c.result()
}

/**
 * The offline extractor in the calling thread: for the quality tests and the bench. The
 * server uses OfflineWorkerExtractor (offline-thread.ts), the same extraction in a worker.
 */
export class OfflineExtractor implements Extractor {
  readonly name = 'offline' as const

  async extract (turns: ExtractionTurn[]): Promise<Extraction> {
    return extractOffline(await loadNlp(), turns)
  }
}
