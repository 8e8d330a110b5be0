// Memory export and import with the graph role on a real Neo4j 5 (test/neo4j/server.ts):
// a channel exported from agentd on the SQL stores, imported into a fresh agentd whose
// graph store is an empty Neo4j and exported from there again gives the same content:
// the transfer goes through the store contracts only, so it also moves memory between
// backends. One Neo4j server (each costs seconds of a busy JVM).
import t, { type Test } from 'tap'
import { startKernel } from '../helpers/kernel.ts'
import { repoPlugin } from '../helpers/workspace.ts'
import { liveNeo4j, neo4jSkip } from '../neo4j/server.ts'
import type { MemoryServiceImpl } from '../../plugins/memory/service.ts'
import { canonical, seedChannel } from './transfer-seed.ts'
import { startMemoryKernel } from './memory-kernel.ts'

// The first Neo4j of a run waits for the launcher's JVM: on two busy cores that can take a minute.
t.setTimeout(300_000)

async function onNeo4j (t: Test): Promise<{ s: Awaited<ReturnType<typeof startKernel>>, svc: () => MemoryServiceImpl }> {
  const server = await liveNeo4j(t)
  const s = await startKernel(t, {
    plugins: [
      { name: 'embed-hash', module: repoPlugin('embed-hash') },
      { name: 'memory-sql', module: repoPlugin('memory-sql') },
      // Before memory-graph-sql: with NEO4J_URI set, it is the graph store.
      { name: 'memory-graph-neo4j', module: repoPlugin('memory-graph-neo4j'), options: { connect_timeout_ms: 3000 } },
      { name: 'memory-graph-sql', module: repoPlugin('memory-graph-sql') },
      { name: 'memory-kv', module: repoPlugin('memory-kv') },
      { name: 'memory', module: repoPlugin('memory'), options: { graph_backfill: false } },
    ],
    env: server.env,
  })
  return { s, svc: () => s.kernel.current?.app.registry.memoryServices.first() as MemoryServiceImpl }
}

t.test('SQL stores -> Neo4j: export, import into a fresh server on Neo4j, export again: the same content', { skip: neo4jSkip() }, async t => {
  const a = await startMemoryKernel(t, { jobs: false })
  await seedChannel(a.svc(), 'n4trip')
  const first = await (await a.get('/api/memory/export?channel=n4trip')).text()
  const b = await onNeo4j(t)
  t.equal(b.svc().ctx.graph?.backend, 'neo4j', 'the graph role is Neo4j')
  const res = await b.s.post('/api/memory/import', first, { headers: { 'content-type': 'application/x-ndjson' } })
  const body = await res.json()
  t.equal(res.status, 200, JSON.stringify(body))
  t.match(body, { imported: { conversations: 2, turns: 5, entities: 3, relationships: 2, facts: 4, goals: 2, strategies: 1 }, dropped: 0 })
  t.same(canonical(await (await b.s.get('/api/memory/export?channel=n4trip')).text()), canonical(first))
  const again = await (await b.s.post('/api/memory/import', first, { headers: { 'content-type': 'application/x-ndjson' } })).json()
  t.match(again, { imported: { turns: 0, entities: 0, facts: 0, goals: 0, strategies: 0 } }, 'nothing twice')
})
