// Who said it. A turn written with its speaker's name (the write API's `name`, as OpenAI's
// messages carry it) makes that name the subject of its first-person facts: in a
// conversation between Caroline and Melanie, "I moved from Sweden" is a fact about
// Caroline, not about "the user". Both extractors read first person as `User`; this maps
// it to the speaker of the fact's turn afterwards, so neither needs to know about names.
import { USER, buildClaim, type Extraction, type ExtractionTurn } from './extraction.ts'

export function attributeSpeakers (x: Extraction, turns: ExtractionTurn[]): Extraction {
  if (!turns.some(t => t.speaker !== undefined)) return x
  const speakers = new Set<string>()
  // A relationship carries no turn: it follows the fact with the same attribute and object.
  const byObject = new Map<string, string>()
  const facts = x.facts.map(f => {
    const speaker = f.subject === USER && f.turn !== undefined ? turns[f.turn]?.speaker : undefined
    if (speaker === undefined) return f
    speakers.add(speaker)
    byObject.set(`${f.predicate}\u0000${f.object}`.toLowerCase(), speaker)
    return {
      ...f,
      subject: speaker,
      claim: buildClaim(speaker, f.predicate, f.object, f.temporal_context),
      entities: f.entities?.map(e => e === USER ? speaker : e),
    }
  })
  const relationships = x.relationships.map(r => {
    const speaker = r.source === USER ? byObject.get(`${r.type}\u0000${r.target}`.toLowerCase()) : undefined
    return speaker === undefined ? r : { ...r, source: speaker }
  })
  const userLeft = facts.some(f => f.subject === USER) || relationships.some(r => r.source === USER || r.target === USER)
  const known = new Set(x.entities.map(e => e.name.toLowerCase()))
  const entities = [
    ...x.entities.filter(e => userLeft || e.name !== USER),
    ...[...speakers].filter(s => !known.has(s.toLowerCase())).map(name => ({ name, type: 'Person', aliases: [], description: 'a speaker in the conversation' })),
  ]
  return { entities, facts, relationships }
}
