// NEO4J_URI written to the workspace .env puts the Neo4j graph store in the graph role by
// a live reload (memory-graph-neo4j is listed before memory-graph-sql); removing it hands
// the role back to the SQL graph store. No Neo4j server can run here, so the URI points at
// a closed loopback port: the store is registered, health names it unhealthy with the
// reason, a graph read is a 503 naming the store, and the rest of memory keeps working.
import t from 'tap'
import { startKernel } from '../helpers/kernel.ts'
import { repoPlugin } from '../helpers/workspace.ts'
import { freePort } from '../helpers/net.ts'

t.test('NEO4J_URI in .env switches the graph role to Neo4j and back', async t => {
  const s = await startKernel(t, {
    plugins: [
      { name: 'embed-hash', module: repoPlugin('embed-hash') },
      { name: 'memory-sql', module: repoPlugin('memory-sql') },
      { name: 'memory-graph-neo4j', module: repoPlugin('memory-graph-neo4j'), options: { connect_timeout_ms: 500 } },
      { name: 'memory-graph-sql', module: repoPlugin('memory-graph-sql') },
      { name: 'memory-kv', module: repoPlugin('memory-kv') },
      { name: 'memory', module: repoPlugin('memory') },
    ],
  })
  const graph = async (): Promise<{ backend: string, status: string, error?: string }> => (await s.json('/api/health?include_memory=true')).body.memory.neo4j
  t.match(await graph(), { backend: 'pglite', status: 'healthy' }, 'the SQL graph store without NEO4J_URI')

  s.ws.write('.env', `NEO4J_URI=bolt://127.0.0.1:${await freePort()}\nNEO4J_PASSWORD=secret\n`)
  await s.nextReload()
  t.equal(s.kernel.api.lastReload()?.ok, true, 'an unreachable server does not fail the reload')
  const down = await graph()
  t.match(down, { backend: 'neo4j', status: 'unhealthy', error: /graph memory store \(neo4j\) is unavailable/ })
  t.notMatch(down.error ?? '', /secret/, 'no password in health')
  const facts = await s.json('/api/memory/facts?channel=n4')
  t.equal(facts.status, 503, 'a graph read is a 503')
  t.match(facts.body.error, /neo4j/)
  t.equal((await s.json('/api/memory/strategies?channel=n4')).status, 200, 'the relational store is not affected')

  s.ws.write('.env', '')
  await s.nextReload()
  t.match(await graph(), { backend: 'pglite', status: 'healthy' }, 'and back to the SQL graph store')
})
