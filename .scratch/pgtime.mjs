import { cpSync, mkdtempSync } from 'node:fs'
import path from 'node:path'
import { tmpdir } from 'node:os'
const T = () => performance.now()
let t = T(); const lap = (m) => { const n = T(); console.log(m.padEnd(20), (n - t).toFixed(0)); t = n }
const { PGlite } = await import('@electric-sql/pglite'); lap('import pglite')
const { vector } = await import('@electric-sql/pglite-pgvector'); lap('import vector')
const { pgliteSeedDir } = await import('@agentd/sdk/kits/sql'); lap('import sql kit')
const dir = path.join(mkdtempSync(path.join(tmpdir(), 'pgt-')), 'db')
cpSync(pgliteSeedDir(), dir, { recursive: true }); lap('seed copy')
const db = await PGlite.create({ dataDir: dir, extensions: { vector }, postgresqlconf: ['shared_buffers = 16MB', 'wal_buffers = 1MB', 'temp_buffers = 2MB', 'maintenance_work_mem = 32MB'] }); lap('PGlite.create')
await db.exec('CREATE EXTENSION IF NOT EXISTS vector'); lap('create extension')
await db.exec('select 1'); lap('select 1')
await db.close(); lap('close')
const db2 = await PGlite.create({ dataDir: dir, extensions: { vector } }); lap('PGlite.create again (restart)')
