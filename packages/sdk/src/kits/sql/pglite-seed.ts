// A freshly initialised PGlite cluster (initdb, pgvector created), kept under
// node_modules/.cache and copied into every new data folder: initdb in WebAssembly takes
// seconds, copying its result a fraction of one. Made on install (scripts/build.mjs) or by
// the first start that needs it; keyed by the PGlite version and this recipe's, so an
// upgrade or a new recipe makes a new one.
//
// The seed holds only the `postgres` database PGlite connects to: initdb's template0 and
// template1 (only CREATE DATABASE reads them, and nothing here creates databases) were two
// thirds of its ~970 files, and a new data folder's copy is paid per file (~0.7 ms each
// on this machine's ext4: 971 files 450-900 ms, 371 files ~250 ms).
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** Bumped when what the seed holds changes, so an existing seed of the old recipe is not reused. */
const RECIPE = 'r3'

/** The seed as one tar (PGlite's dumpDataDir), beside its folder: what an in-memory instance loads. */
const dumpOf = (dir: string): string => `${dir}.tar`

/** Where the seed for the installed PGlite lives: node_modules/.cache/agentd-pglite-seed/<version>-<recipe>. */
export function pgliteSeedDir (): string {
  let dir = path.dirname(fileURLToPath(import.meta.resolve('@electric-sql/pglite')))
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir)
  const { version } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }
  return path.join(dir, '..', '..', '.cache', 'agentd-pglite-seed', `${version}-${RECIPE}`)
}

/** Makes the seed if it is not there yet (written aside and renamed, so never half there); returns its folder. */
export async function ensurePgliteSeed (): Promise<string> {
  const dir = pgliteSeedDir()
  if (existsSync(path.join(dir, 'PG_VERSION'))) return dir
  const { PGlite } = await import('@electric-sql/pglite')
  const { vector } = await import('@electric-sql/pglite-pgvector')
  const tmp = `${dir}.${process.pid}.tmp`
  rmSync(tmp, { recursive: true, force: true })
  mkdirSync(tmp, { recursive: true })
  const db = await PGlite.create({ dataDir: tmp, extensions: { vector } })
  await db.exec('CREATE EXTENSION IF NOT EXISTS vector')
  await db.exec("UPDATE pg_database SET datistemplate = false WHERE datname IN ('template0', 'template1')")
  await db.exec('DROP DATABASE template0')
  await db.exec('DROP DATABASE template1')
  const dump = Buffer.from(await (await db.dumpDataDir('none')).arrayBuffer())
  await db.close()
  if (!existsSync(path.join(dir, 'PG_VERSION'))) {
    // The tar first: a seed folder that is there always has its tar.
    writeFileSync(`${dumpOf(dir)}.${process.pid}.tmp`, dump)
    renameSync(`${dumpOf(dir)}.${process.pid}.tmp`, dumpOf(dir))
    rmSync(dir, { recursive: true, force: true })
    renameSync(tmp, dir)
  } else rmSync(tmp, { recursive: true, force: true })
  return dir
}

let dump: Promise<Blob> | undefined

/**
 * The seed as a tar for PGlite's `loadDataDir`, read once per process: an in-memory
 * instance (tests, `pglite_dir: "memory"`) starts from it instead of running initdb in
 * WebAssembly, which took 2-5 s of every such instance.
 */
export async function pgliteSeedDump (): Promise<Blob> {
  dump ??= (async () => new Blob([await readFile(dumpOf(await ensurePgliteSeed()))]))()
  dump.catch(() => { dump = undefined })
  return await dump
}

/**
 * The prepared seed of a compiled build: the cluster as the shipped plugins leave it on
 * their first start (every migration and pg-boss's schema applied, in schema `public`),
 * made by scripts/build.mjs from a start of the compiled server and kept beside the
 * compiled SDK (packages/sdk/dist/pglite-ready), so it always matches the code that runs.
 * Run from the sources (tests, `npm run dev`) there is none: the plain seed is copied and
 * the plugins migrate it.
 */
export function preparedSeedDir (): string {
  return fileURLToPath(new URL('../../pglite-ready', import.meta.url))
}

/**
 * A new (missing or empty) data folder starts as a copy of the prepared seed when there is
 * one for this schema, else of the plain seed.
 */
export async function seedDataDir (dataDir: string, schema = 'public'): Promise<void> {
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) return
  const prepared = preparedSeedDir()
  const from = schema === 'public' && existsSync(path.join(prepared, 'PG_VERSION')) ? prepared : await ensurePgliteSeed()
  cpSync(from, dataDir, { recursive: true })
}
