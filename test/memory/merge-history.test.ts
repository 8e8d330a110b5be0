// Entity merges in the items' history, on PGlite and on the real PostgreSQL: two entities
// merged by memory-graph-sql's entity_linking job (run through the jobs API, as its
// schedule runs it) show the merge in the history of the surviving entity, of the one
// merged into it and of each fact that moved with it, all as actor `merge`. Beside them,
// a write made in process without an actor (another plugin through the memory service) is
// actor `system`.
import t from 'tap'
import { sql } from 'kysely'
import { openSql } from '@agentd/sdk/kits/sql'
import { startMemoryKernel, postJson } from './memory-kernel.ts'
import { PG_URI, uniqueSchema } from './sql-targets.ts'
import { repoPlugin } from '../helpers/workspace.ts'
import type { Started } from '../helpers/kernel.ts'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

const history = async (s: Started, kind: string, id: string): Promise<{ status: number, body: Json }> => await s.json(`/api/memory/${kind}/${id}/history`)

const backends: Array<{ name: string, sql: () => Promise<{ opts: Record<string, unknown>, drop: () => Promise<void> }> }> = [
  { name: 'pglite', sql: async () => ({ opts: {}, drop: async () => {} }) },
  {
    name: 'postgres',
    sql: async () => {
      const schema = uniqueSchema()
      const h = await openSql({ backend: 'postgres', uri: PG_URI, schema, poolSize: 1, connectTimeoutMs: 3000 }, { warn: () => {} })
      return { opts: { postgres_uri: PG_URI, schema }, drop: async () => { await sql.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE; DROP SCHEMA IF EXISTS "${schema}_pgboss" CASCADE`).execute(h.db); await h.close() } }
    },
  },
]

for (const backend of backends) {
  t.test(`an entity merge in the items' history (${backend.name})`, async t => {
    const db = await backend.sql()
    t.teardown(db.drop)
    const s = await startMemoryKernel(t, { sql: db.opts, extra: [{ name: 'jobs', module: repoPlugin('jobs'), options: db.opts }] })

    // Two spellings of one place (not the same name to the write API's dedupe), each with a fact.
    const a = (await postJson(s, '/api/memory/entities', { name: 'New York City', type: 'Location', channel: 'mh', aliases: ['Big Apple'] })).body.entity
    const b = (await postJson(s, '/api/memory/entities', { name: 'new-york  city', type: 'Location', channel: 'mh' })).body.entity
    t.not(a.id, b.id, 'two entities before the job')
    const fa = (await postJson(s, '/api/memory/facts', { claim: 'New York City has eight million people', channel: 'mh', entity_ids: [a.id] })).body.fact
    const fb = (await postJson(s, '/api/memory/facts', { claim: 'new-york city never sleeps', channel: 'mh', entity_ids: [b.id] })).body.fact

    const run = await (await s.post('/api/jobs/entity_linking/run', {})).json() as Json
    t.match(run, { success: true, job: 'entity_linking', metrics: { merged: 1, by_name: 1 } })

    // The older one survives (a tie in the same millisecond goes by id): whichever it is, it is the one still there.
    const aLeft = (await s.json(`/api/memory/entities/${String(a.id)}`)).status === 200
    const [survivor, merged] = aLeft ? [a, b] : [b, a]
    t.equal((await s.json(`/api/memory/entities/${String(merged.id)}`)).status, 404, 'the merged entity is gone')
    const ref = (e: Json): Json => ({ id: e.id, name: e.name, type: 'Location', channel: 'mh' })

    const hs = await history(s, 'entities', survivor.id)
    t.equal(hs.status, 200)
    t.same(hs.body.history.map((e: Json) => [e.action, e.actor]), [['entity.create', 'user'], ['entity.merge', 'merge']], 'the survivor: created, then merged into')
    t.match(hs.body.history[1], { channel: 'mh', details: { name: survivor.name, merged_from: ref(merged), reason: 'name', by: 'entity_linking', facts_moved: 1 } })

    const hm = await history(s, 'entities', merged.id)
    t.equal(hm.status, 200, 'a merged entity keeps its history')
    t.equal(hm.body.exists, false)
    t.same(hm.body.history.map((e: Json) => [e.action, e.actor]), [['entity.create', 'user'], ['entity.merged_into', 'merge']], 'the merged one: created, then merged into the survivor')
    t.match(hm.body.history[1], { channel: 'mh', details: { name: merged.name, merged_into: ref(survivor), reason: 'name', by: 'entity_linking' } })

    // The merged entity's fact moved to the survivor; the survivor's own fact did not move.
    const [moved, stayed] = aLeft ? [fb, fa] : [fa, fb]
    t.ok((await s.json(`/api/memory/facts/${String(moved.id)}`)).body.entity_ids.includes(survivor.id), 'the fact is linked to the survivor now')
    const hf = await history(s, 'facts', moved.id)
    t.same(hf.body.history.map((e: Json) => [e.action, e.actor]), [['fact.create', 'user'], ['fact.entity_merged', 'merge']])
    t.match(hf.body.history[1].details, { from_entity: ref(merged), into_entity: ref(survivor), reason: 'name' })
    t.same((await history(s, 'facts', stayed.id)).body.history.map((e: Json) => e.action), ['fact.create'], 'a fact of the survivor only: no merge entry')

    t.match(await (await s.post('/api/jobs/entity_linking/run', {})).json(), { metrics: { merged: 0 } }, 'nothing left to merge')
    t.equal((await history(s, 'entities', survivor.id)).body.history.length, 2, 'no merge, no entry')

    t.test('a write without an actor (in process, through the memory service) is actor system', async t => {
      const goal = await s.svc().procedural.addGoal({ description: 'keep the roof garden alive', channel: 'mh' })
      const h = await history(s, 'goals', goal.id)
      t.same(h.body.history.map((e: Json) => [e.action, e.actor]), [['goal.create', 'system']])
    })
  })
}
