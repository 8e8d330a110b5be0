// The graph store contract (test/memory/graph-contract.ts) on every SQL backend:
// embedded PGlite and the real PostgreSQL 15.
import t, { type Test } from 'tap'
import { SQL_BACKENDS } from '../../test/memory/sql-targets.ts'
import { graphCopiesContract, graphStoreContract } from '../../test/memory/graph-contract.ts'
import { SqlGraphStore } from './graph-store.ts'

for (const backend of SQL_BACKENDS) {
  t.test(`graph store on ${backend.name}`, async t => {
    const open = async (t: Test): Promise<SqlGraphStore> => {
      const store = new SqlGraphStore(await backend.open(t))
      await store.init()
      return store
    }
    graphStoreContract(t, open)
    // It keeps no copies (turns, goals, strategies live in the same database): the suite checks it has none of them.
    graphCopiesContract(t, open)
  })
}
