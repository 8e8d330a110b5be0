// The graph store contract, one suite per slice of the GraphStore interface
// (packages/sdk/src/contracts/memory-graph.ts), each typed by the slices it exercises, so a
// store that serves some slices runs their suites: the SQL store runs them on PGlite and
// PostgreSQL (plugins/memory-graph-sql), the Neo4j store on a live server (plugins/memory-graph-neo4j).
// `open` gives a store on an empty backend for the duration of the test and closes it in teardown.
import type { Test } from 'tap'
import type { GraphStore } from '@agentd/sdk/contracts/memory-stores'
import { entitySlice } from './contracts/graph-entities.ts'
import { factSlice } from './contracts/graph-facts.ts'
import { relationSlice } from './contracts/graph-relations.ts'
import { editSlice } from './contracts/graph-edits.ts'
import { graphChannelSlice } from './contracts/graph-channels.ts'
export { graphJobsContract } from './contracts/graph-maintenance.ts'
export { graphConsolidationContract } from './contracts/graph-consolidation.ts'
export { graphCopiesContract } from './contracts/graph-copies.ts'

export type OpenGraphStore = (t: Test) => Promise<GraphStore>

/** The entity, fact, relation and channel slices and the write API over them, on one store (the channel slice last: it deletes everything). */
export function graphStoreContract (t: Test, open: OpenGraphStore): void {
  t.test('graph store contract', async t => {
    const store = await open(t)
    t.test('entities', async t => { entitySlice(t, store) })
    t.test('facts', async t => { factSlice(t, store) })
    t.test('relations', async t => { relationSlice(t, store) })
    t.test('write API', async t => { editSlice(t, store) })
    t.test('channels', async t => { graphChannelSlice(t, store) })
  })
}
