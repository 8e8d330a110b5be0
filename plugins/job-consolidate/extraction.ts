// What an extractor returns, whichever ran (a language model or the offline one): entities,
// facts as subject-predicate-object triples with a third-person claim, and relationships.
// The schema is what the LLM's answer is validated against; the offline extractor builds
// the same shape. Facts carry their predicate so supersession can compare "same subject,
// same attribute" without parsing the claim.
import type { TraceContext } from '@agentd/sdk'
import { Type, type Static } from '@agentd/sdk/typebox'
import { inThirdPerson } from './offline-statements.ts'

export const ENTITY_TYPES = ['Person', 'Organization', 'Location', 'Concept', 'Event', 'Animal'] as const
export type EntityType = typeof ENTITY_TYPES[number]

/** The person talking to the agent: the subject of every first-person statement. */
export const USER = 'User'

export const ExtractedEntitySchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  type: Type.String({ minLength: 1, maxLength: 50, description: `one of ${ENTITY_TYPES.join(', ')}` }),
  aliases: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 20 })),
  description: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
})

export const ExtractedFactSchema = Type.Object({
  subject: Type.String({ minLength: 1, maxLength: 200, description: `the entity the fact is about; "${USER}" for the person speaking` }),
  predicate: Type.String({ minLength: 1, maxLength: 60, description: 'snake_case attribute: works_at, lives_in, job_title, name, likes, sister, ...' }),
  object: Type.String({ minLength: 1, maxLength: 300 }),
  claim: Type.String({ minLength: 1, maxLength: 500, description: 'one sentence in the third person naming its subject' }),
  confidence: Type.Number({ minimum: 0, maximum: 1 }),
  temporal_context: Type.Union([Type.Literal('current'), Type.Literal('past'), Type.Literal('future')]),
  /** Index into the turns given to the extractor (0-based); the fact's source turn. */
  turn: Type.Optional(Type.Integer({ minimum: 0 })),
  entities: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 20 })),
})

export const ExtractedRelationshipSchema = Type.Object({
  source: Type.String({ minLength: 1, maxLength: 200 }),
  target: Type.String({ minLength: 1, maxLength: 200 }),
  type: Type.String({ minLength: 1, maxLength: 60 }),
  confidence: Type.Number({ minimum: 0, maximum: 1 }),
})

export const ExtractionSchema = Type.Object({
  entities: Type.Array(ExtractedEntitySchema, { maxItems: 200 }),
  facts: Type.Array(ExtractedFactSchema, { maxItems: 200 }),
  relationships: Type.Array(ExtractedRelationshipSchema, { maxItems: 200 }),
})

export type ExtractedEntity = Static<typeof ExtractedEntitySchema>
export type ExtractedFact = Static<typeof ExtractedFactSchema>
export type ExtractedRelationship = Static<typeof ExtractedRelationshipSchema>
export type Extraction = Static<typeof ExtractionSchema>

/** A turn given to an extractor; `speaker` is who said it when the caller named them (speakers.ts). */
export interface ExtractionTurn { id: string, content: string, speaker?: string }

export interface Extractor {
  readonly name: 'llm' | 'offline'
  /** `trace`: the job run's trace context, the parent of a model call's span. */
  extract: (turns: ExtractionTurn[], signal?: AbortSignal, trace?: TraceContext) => Promise<Extraction>
}

/** Relationship types the extractor is told of (any snake_case type is taken), and `same_as` from the entity_linking job. */
export const RELATIONSHIP_TYPES = ['works_at', 'lives_in', 'from', 'studies_at', 'likes', 'knows', 'friend', 'partner', 'wife', 'husband', 'sister', 'brother', 'mother', 'father', 'boss', 'has_pet', 'same_as'] as const

/**
 * Attributes a subject has one of at a time: a new value replaces the old one
 * (supersession). Anything else (likes, friends, languages) accumulates.
 */
const SINGLE_VALUED = new Set([
  'name', 'works_at', 'job_title', 'lives_in', 'age', 'diet', 'born_in', 'birth_year', 'grew_up_in', 'from',
  'wife', 'husband', 'partner', 'girlfriend', 'boyfriend', 'fiance', 'fiancee', 'boss', 'manager', 'mother', 'father',
  'studies_at', 'birthday', 'marital_status', 'employer', 'city', 'email', 'phone',
])
/** The LLM may name an attribute differently; these mean the same for supersession. */
const SYNONYMS: Record<string, string> = { employer: 'works_at', works_for: 'works_at', city: 'lives_in', location: 'lives_in', lives_at: 'lives_in', occupation: 'job_title', job: 'job_title', title: 'job_title', profession: 'job_title', mom: 'mother', mum: 'mother', dad: 'father' }

export const normPredicate = (p: string): string => {
  const k = p.trim().toLowerCase().replace(/[\s-]+/g, '_')
  return SYNONYMS[k] ?? k
}

/** The supersession key of a predicate: itself when single-valued, else null. */
export const attributeOf = (predicate: string): string | null => {
  const p = normPredicate(predicate)
  return SINGLE_VALUED.has(p) || p.startsWith('favourite_') || p.startsWith('favorite_') ? p : null
}

const FAMILY = new Set(['sister', 'brother', 'wife', 'husband', 'partner', 'girlfriend', 'boyfriend', 'son', 'daughter', 'friend', 'best_friend', 'boss', 'manager',
  'mother', 'father', 'colleague', 'coworker', 'cousin', 'uncle', 'aunt', 'grandmother', 'grandfather', 'roommate', 'fiance', 'fiancee', 'neighbour', 'neighbor'])
export const isRelation = (p: string): boolean => FAMILY.has(normPredicate(p))

type Tense = 'current' | 'past' | 'future'
const VERBS: Record<string, Record<Tense, string>> = {
  works_at: { current: 'works at', past: 'used to work at', future: 'will work at' },
  lives_in: { current: 'lives in', past: 'used to live in', future: 'plans to move to' },
  job_title: { current: 'is', past: 'used to be', future: 'will be' },
  studies_at: { current: 'studies at', past: 'used to study at', future: 'will study at' },
  studies: { current: 'studies', past: 'used to study', future: 'will study' },
  likes: { current: 'likes', past: 'used to like', future: 'likes' },
  dislikes: { current: 'dislikes', past: 'used to dislike', future: 'dislikes' },
  prefers: { current: 'prefers', past: 'used to prefer', future: 'prefers' },
  allergic_to: { current: 'is allergic to', past: 'used to be allergic to', future: 'is allergic to' },
  speaks: { current: 'speaks', past: 'used to speak', future: 'will speak' },
  plays: { current: 'plays', past: 'used to play', future: 'will play' },
  learning: { current: 'is learning', past: 'was learning', future: 'will learn' },
  drives: { current: 'drives', past: 'used to drive', future: 'will drive' },
  teaches: { current: 'teaches', past: 'used to teach', future: 'will teach' },
  from: { current: 'is from', past: 'is from', future: 'is from' },
  born_in: { current: 'was born in', past: 'was born in', future: 'was born in' },
  birth_year: { current: 'was born in', past: 'was born in', future: 'was born in' },
  grew_up_in: { current: 'grew up in', past: 'grew up in', future: 'grew up in' },
  has_pet: { current: 'has a pet called', past: 'used to have a pet called', future: 'will have a pet called' },
  diet: { current: 'is', past: 'used to be', future: 'will be' },
}

const withArticle = (title: string): string => /^(a|an|the)\s/i.test(title) ? title : `${/^[aeiou]/i.test(title) ? 'an' : 'a'} ${title}`

/** "The user works at Google.", "Anna lives in Paris.", "The user's sister is Anna." */
export function buildClaim (subject: string, predicate: string, object: string, tense: Tense): string {
  const s = subject === USER ? 'The user' : subject
  const p = normPredicate(predicate)
  const possessive = subject === USER ? "The user's" : `${subject}'s`
  let body: string
  if (p === 'name') body = `${possessive} name is ${object}`
  else if (p === 'age') body = `${s} is ${object} years old`
  else if (isRelation(p)) body = `${possessive} ${p.replace(/_/g, ' ')} ${tense === 'past' ? 'was' : 'is'} ${object}`
  else if (p.startsWith('favourite_') || p.startsWith('favorite_')) body = `${possessive} favourite ${p.slice(p.indexOf('_') + 1).replace(/_/g, ' ')} is ${object}`
  // A first-person clause in the third person, its verb first ("went to a support group"): offline-statements.ts.
  else if (p === 'statement') body = `${s} ${object}`
  // A sentence about oneself as said ("my favorite treat is ..."), the speaker named in it.
  else if (p === 'remark') body = inThirdPerson(s, possessive, object)
  else if (p === 'job_title') body = `${s} ${VERBS.job_title[tense]} ${withArticle(object)}`
  else {
    const verb = VERBS[p]?.[tense] ?? `${tense === 'past' ? 'had' : 'has'} ${p.replace(/_/g, ' ')}`
    body = `${s} ${verb} ${object}`
  }
  return `${body}.`
}
