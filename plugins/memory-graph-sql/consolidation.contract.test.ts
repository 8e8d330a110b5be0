// The graph store's consolidation contract (test/memory/graph-contract.ts) on every SQL
// backend: embedded PGlite and the real PostgreSQL 15.
import t from 'tap'
import { SQL_BACKENDS } from '../../test/memory/sql-targets.ts'
import { graphConsolidationContract } from '../../test/memory/graph-contract.ts'
import { SqlGraphStore } from './graph-store.ts'

for (const backend of SQL_BACKENDS) {
  t.test(`graph consolidation contract on ${backend.name}`, async t => {
    graphConsolidationContract(t, async t => {
      const store = new SqlGraphStore(await backend.open(t))
      await store.init()
      return store
    })
  })
}
