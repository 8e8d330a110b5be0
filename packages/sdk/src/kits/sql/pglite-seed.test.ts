// The PGlite seed: a new data folder is a copy of an initialised cluster with only the
// `postgres` database, pgvector created, and it opens, writes and reopens like one made by initdb.
import t from 'tap'
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { ensurePgliteSeed, pgliteSeedDump, seedDataDir } from './pglite-seed.ts'

t.test('a new data folder from the seed holds the one database, pgvector, and keeps what is written', async t => {
  const { PGlite } = await import('@electric-sql/pglite')
  const { vector } = await import('@electric-sql/pglite-pgvector')
  const root = mkdtempSync(path.join(tmpdir(), 'agentd-seed-'))
  t.teardown(() => { rmSync(root, { recursive: true, force: true }) })
  const seed = await ensurePgliteSeed()
  t.ok(existsSync(path.join(seed, 'PG_VERSION')))
  t.equal(readdirSync(path.join(seed, 'base')).length, 1, 'one database folder: the templates are not copied')
  const dir = path.join(root, 'db')
  await seedDataDir(dir)
  const db = await PGlite.create({ dataDir: dir, extensions: { vector } })
  const { rows } = await db.query<{ dbs: string[], ext: number }>(`SELECT (SELECT array_agg(datname) FROM pg_database) AS dbs, (SELECT count(*)::int FROM pg_extension WHERE extname = 'vector') AS ext`)
  t.same(rows[0], { dbs: ['postgres'], ext: 1 })
  await db.exec(`CREATE TABLE notes (id int, e vector(3)); INSERT INTO notes VALUES (1, '[1,2,3]'); CREATE INDEX ON notes USING hnsw (e vector_cosine_ops)`)
  await db.close()
  const again = await PGlite.create({ dataDir: dir, extensions: { vector } })
  t.same((await again.query('SELECT id FROM notes ORDER BY e <=> \'[1,2,3]\' LIMIT 1')).rows, [{ id: 1 }], 'reopened, the row and its index are there')
  await again.close()
})

t.test('a folder that already holds a cluster is left as it is', async t => {
  const root = mkdtempSync(path.join(tmpdir(), 'agentd-seed-'))
  t.teardown(() => { rmSync(root, { recursive: true, force: true }) })
  const dir = path.join(root, 'db')
  await seedDataDir(dir)
  rmSync(path.join(dir, 'postgresql.conf'))
  await seedDataDir(dir)
  t.notOk(existsSync(path.join(dir, 'postgresql.conf')), 'not copied over')
})

t.test('an in-memory instance loads the seed\'s tar: the one database and pgvector, without initdb', async t => {
  const { PGlite } = await import('@electric-sql/pglite')
  const { vector } = await import('@electric-sql/pglite-pgvector')
  const db = await PGlite.create({ loadDataDir: await pgliteSeedDump(), extensions: { vector } })
  t.teardown(async () => { await db.close() })
  const { rows } = await db.query<{ dbs: string[], ext: number }>(`SELECT (SELECT array_agg(datname) FROM pg_database) AS dbs, (SELECT count(*)::int FROM pg_extension WHERE extname = 'vector') AS ext`)
  t.same(rows[0], { dbs: ['postgres'], ext: 1 })
  t.equal(await pgliteSeedDump(), await pgliteSeedDump(), 'read once per process')
})
