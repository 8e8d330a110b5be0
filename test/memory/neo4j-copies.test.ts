// The memory service with the Neo4j graph store (on the recording fake driver: no server
// can be installed here) and the SQL relational store on PGlite: what the service's
// writes send to Neo4j as copies, and a Neo4j outage queueing them in the copy outbox
// while PGlite takes the turn, replayed once the server answers again.
import t, { type Test } from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pino from 'pino'
import neo4j from 'neo4j-driver'
import { createRegistry, Hooks } from '@agentd/sdk'
import { SqlRelationalStore } from '../../plugins/memory-sql/relational-store.ts'
import { Neo4jGraphStore } from '../../plugins/memory-graph-neo4j/graph-store.ts'
import { CQ } from '../../plugins/memory-graph-neo4j/copies.ts'
import { FakeDriver, rec } from '../../plugins/memory-graph-neo4j/test-support.ts'
import { MemoryServiceImpl } from '../../plugins/memory/service.ts'
import { Outbox } from '../../plugins/memory/outbox/outbox.ts'
import { SQL_BACKENDS } from './sql-targets.ts'

const log = pino({ level: 'silent' })
const opts = { tokenBudget: 1000, topK: 10, workingMemoryTurns: 20, workingMemoryTtlSeconds: 60, recencyWeight: 0.2, recencyHalfLifeHours: 24 }
const pglite = SQL_BACKENDS.find(b => b.name === 'pglite')
if (pglite === undefined) throw new Error('no pglite backend')

async function setup (t: Test): Promise<{ svc: MemoryServiceImpl, driver: FakeDriver, rel: SqlRelationalStore, down: { on: boolean } }> {
  const down = { on: false }
  const unavailable = Object.assign(new Error('Could not perform discovery. No routing servers available.'), { code: 'ServiceUnavailable' })
  const driver = new FakeDriver(q => {
    if (down.on) return unavailable
    if (q === CQ.removeConversationTurns) return [rec({ n: neo4j.int(2) })]
    if (q === CQ.removeConversation || q === CQ.removeGoal) return [rec({ n: neo4j.int(1) })]
    return []
  })
  const rel = new SqlRelationalStore(await pglite!.open(t))
  await rel.init()
  const reg = createRegistry()
  reg.relationalStores.add('memory-sql', rel)
  reg.graphStores.add('memory-graph-neo4j', new Neo4jGraphStore({ driver, cooldownMs: 0 }))
  return { svc: new MemoryServiceImpl(() => reg, () => new Hooks(), log, opts), driver, rel, down }
}

t.test('turns, goals and a deleted conversation reach Neo4j as copies of what SQL stored', async t => {
  const { svc, driver } = await setup(t)
  const a = await svc.storeTurn({ conversation_id: 'conv-1', role: 'user', content: 'Dr Okafor called', channel: 'work' })
  const b = await svc.storeTurn({ conversation_id: 'conv-1', role: 'assistant', content: 'Noted', channel: 'work' })
  t.equal(a.stored, true)
  const turns = driver.sent(CQ.upsertTurn)
  t.equal(turns.length, 2)
  t.match(turns[1].params, { id: b.turn?.id, conversation_id: 'conv-1', index: neo4j.int(1), timestamp: b.turn?.timestamp, role: 'assistant', content: 'Noted', channel: 'work' })
  const goal = await svc.addGoal({ description: 'Close the Okafor deal', priority: 3, channel: 'work' })
  await svc.editGoal(goal.id, { status: 'completed' })
  const goals = driver.sent(CQ.upsertGoal)
  t.same(goals.map(c => c.params.status), ['active', 'completed'], 'the goal as SQL holds it after each write')
  t.match(goals[1].params, { id: goal.id, description: 'Close the Okafor deal', priority: neo4j.int(3), channel: 'work', created_at: goal.created_at })
  await svc.deleteGoal(goal.id)
  t.same(driver.sent(CQ.removeGoal).map(c => c.params), [{ id: goal.id }])
  await svc.deleteConversation('conv-1')
  t.same(driver.sent(CQ.removeConversationTurns).map(c => c.params), [{ id: 'conv-1' }])
})

t.test('Neo4j down: SQL takes the turn, the copy waits in the copy outbox and is replayed once Neo4j answers', async t => {
  const { svc, driver, rel, down } = await setup(t)
  const dir = mkdtempSync(path.join(tmpdir(), 'agentd-neo4j-copies-'))
  const outbox = new Outbox({ dir, maxEntries: 100, maxBytes: 1024 * 1024, writeTimeoutMs: 2000, maxRetryMs: 50, maxAttempts: 3 }, log)
  t.teardown(async () => { await outbox.close(); rmSync(dir, { recursive: true, force: true }) })
  svc.copies.outbox = outbox
  down.on = true
  const r = await svc.storeTurn({ conversation_id: 'conv-2', role: 'user', content: 'while Neo4j is away', channel: 'work' })
  t.equal(r.stored, true, 'the chat\'s turn is stored in SQL')
  t.equal((await rel.conversationTurns('conv-2', 10)).length, 1)
  t.equal(outbox.pending, 1, 'its copy is queued')
  t.equal(driver.sent(CQ.upsertTurn).length, 0, 'nothing reached Neo4j')
  t.ok(driver.calls.length > 0, 'it was tried')
  down.on = false
  outbox.attach(svc.copies.applyQueued, log)
  await outbox.flush()
  t.equal(outbox.pending, 0)
  const sent = driver.sent(CQ.upsertTurn)
  t.equal(sent.length, 1, 'replayed once')
  t.match(sent[0].params, { id: r.turn?.id, content: 'while Neo4j is away', index: neo4j.int(0) })
})
