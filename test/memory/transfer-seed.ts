// A channel with one of every kind of memory item, for the export/import tests, and the
// content of an export with what an import rebuilds by itself (ids of entities, facts and
// goals, times of writing, access counts) left out, so two exports can be compared.
import type { MemoryServiceImpl } from '../../plugins/memory/service.ts'

export async function seedChannel (svc: MemoryServiceImpl, channel: string): Promise<void> {
  const at = (m: number): string => new Date(Date.UTC(2025, 0, 2, 10, m)).toISOString()
  const t1 = await svc.episodic.addTurn({ conversation_id: `${channel}-c1`, role: 'user', content: 'I moved from Berlin to Lisbon last spring.', channel, timestamp: at(0), metadata: { name: 'Ada' } })
  await svc.episodic.addTurn({ conversation_id: `${channel}-c1`, role: 'assistant', content: 'Lisbon is lovely in spring.', channel, timestamp: at(1) })
  await svc.episodic.addTurn({ conversation_id: `${channel}-c1`, role: 'user', content: 'I work at Acme on the analytical engine.', channel, timestamp: at(2) })
  await svc.episodic.addTurn({ conversation_id: `${channel}-c2`, role: 'user', content: 'Remind me to water the plants.', channel, timestamp: at(10) })
  await svc.episodic.addTurn({ conversation_id: `${channel}-c2`, role: 'assistant', content: 'I will remind you tomorrow.', channel, timestamp: at(11) })
  await svc.ctx.relational?.markConsolidated([`${channel}-c1`], at(30))
  const ada = (await svc.semantic.addEntity({ name: 'Ada', type: 'Person', aliases: ['Ada L.'], description: 'the user', properties: { born: 1815 }, channel })).entity
  const acme = (await svc.semantic.addEntity({ name: 'Acme', type: 'Organization', channel })).entity
  const lisbon = (await svc.semantic.addEntity({ name: 'Lisbon', type: 'Place', channel })).entity
  await svc.semantic.relate({ source_id: ada.id, target_id: acme.id, type: 'works_at', confidence: 0.9, channel })
  await svc.semantic.relate({ source_id: ada.id, target_id: lisbon.id, type: 'lives_in', channel })
  const berlin = await svc.semantic.addFact({ claim: 'Ada lives in Berlin', entity_ids: [ada.id], confidence: 0.8, source: 'extraction', source_turn_id: t1.id, channel })
  await svc.semantic.supersedeFact(berlin.fact.id, { claim: 'Ada lives in Lisbon', entity_ids: [ada.id, lisbon.id], confidence: 0.95, source: 'extraction', source_turn_id: t1.id, channel })
  await svc.semantic.addFact({ claim: 'Ada works at Acme', entity_ids: [ada.id, acme.id], salience: 0.7, channel })
  await svc.semantic.addFact({ claim: 'Ada will visit Porto', temporal_context: 'future', confidence: 0.6, channel })
  const parent = await svc.procedural.addGoal({ description: 'Settle in Lisbon', priority: 4, channel })
  await svc.procedural.addGoal({ description: 'Find a flat', status: 'completed', parent_goal_id: parent.id, deadline: '2025-06-01T00:00:00.000Z', channel })
  await svc.procedural.addStrategy({ description: 'Look up a place, then its weather', context_pattern: 'weather in', tool_sequence: ['search', 'weather'], success_count: 3, failure_count: 1, last_used: at(40), channel })
}

type Line = Record<string, unknown> & { kind: string }

/**
 * An export's lines as comparable values: bookkeeping an import rebuilds is left out and
 * ids of entities, facts and goals are replaced by what names them (name and type, claim,
 * description). `ids: false` also names turns and conversations by their content (an
 * import into another channel derives new ones); `channel` replaces every channel name.
 */
export function canonical (file: string, o: { ids?: boolean, channel?: string } = {}): string[] {
  const lines = file.split('\n').filter(l => l !== '').map(l => JSON.parse(l) as Line)
  const label = new Map<string, string>()
  for (const l of lines) {
    if (l.kind === 'entity') label.set(String(l.id), `entity:${String(l.name)}/${String(l.type)}`)
    if (l.kind === 'fact') label.set(String(l.id), `fact:${String(l.claim)}`)
    if (l.kind === 'goal') label.set(String(l.id), `goal:${String(l.description)}`)
    if (o.ids === false && l.kind === 'turn') label.set(String(l.id), `turn:${String(l.content)}`)
    if (o.ids === false && l.kind === 'conversation') label.set(String(l.id), `conversation:${String(l.id).length}`)
  }
  if (o.ids === false) for (const l of lines) if (l.kind === 'turn') label.set(String(l.conversation_id), `conversation of ${String(l.timestamp).slice(0, 15)}`)
  const ref = (v: unknown): unknown => typeof v === 'string' ? label.get(v) ?? v : Array.isArray(v) ? v.map(ref).sort() : v
  const ch = (v: unknown): unknown => o.channel ?? v
  const keep = (l: Line, keys: string[], refs: string[] = []): string => JSON.stringify(Object.fromEntries([
    ['kind', l.kind], ...keys.map(k => [k, k === 'channel' ? ch(l[k]) : l[k]]), ...refs.map(k => [k, ref(l[k])]),
  ]))
  return lines.map(l => {
    switch (l.kind) {
      case 'header': return JSON.stringify({ kind: 'header', format: l.format, version: l.version, channels: (l.channels as string[]).map(ch) })
      case 'channel': return JSON.stringify({ kind: 'channel', name: ch(l.name) })
      case 'conversation': return keep(l, ['channel', 'consolidated_at'], ['id'])
      case 'turn': return keep(l, ['index', 'timestamp', 'role', 'content', 'metadata', 'channel'], ['id', 'conversation_id'])
      case 'entity': return keep(l, ['name', 'type', 'aliases', 'description', 'salience', 'properties', 'channel'])
      case 'relationship': return keep(l, ['type', 'confidence', 'channel'], ['source_id', 'target_id'])
      case 'fact': return keep(l, ['claim', 'confidence', 'source', 'channel', 'salience', 'temporal_context', 'flagged_for_review', 'attribute', 'value'],
        ['source_turn_id', 'entity_ids', 'supersedes_id', 'superseded_by_id', 'subject_id']) + (l.superseded_at === null ? '' : ' superseded')
      case 'goal': return keep(l, ['description', 'status', 'priority', 'created_at', 'deadline', 'channel'], ['parent_goal_id'])
      case 'strategy': return keep(l, ['description', 'context_pattern', 'tool_sequence', 'success_count', 'failure_count', 'last_used', 'channel'])
      default: return JSON.stringify(l)
    }
  }).sort()
}
