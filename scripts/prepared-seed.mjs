// The prepared PGlite seed (packages/sdk/dist/pglite-ready, read by the SQL kit's
// seedDataDir): the compiled server is started once on a new data folder with the shipped
// plugins.json and embedded defaults, and stopped as soon as every section is healthy; the
// PGlite folder it leaves (every migration and the job queue's schema applied) is what a
// new data folder then starts from, so a first start applies nothing. A scheduled job's
// first ask waits (plugins/jobs/engine.ts), so no run happens before the stop; the folder is
// checked for runs and job rows anyway, and not used if it holds any.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'

async function freePort () {
  const s = createServer()
  await new Promise(resolve => s.listen(0, '127.0.0.1', resolve))
  const { port } = s.address()
  await new Promise(resolve => s.close(resolve))
  return port
}

async function healthy (port, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      const h = await (await fetch(`http://127.0.0.1:${port}/api/health?include_memory=true`)).json()
      if (h.ready === true && h.status === 'healthy') return true
    } catch { /* not listening yet */ }
    await new Promise(resolve => setTimeout(resolve, 50))
  }
  return false
}

/** Rows a seed must not hold: runs of jobs, and pg-boss's jobs. */
async function leftovers (dir) {
  const { PGlite } = await import('@electric-sql/pglite')
  const { vector } = await import('@electric-sql/pglite-pgvector')
  const db = await PGlite.create({ dataDir: dir, extensions: { vector } })
  try {
    // Either table may be missing (a plugins.json without the jobs plugin): none of its rows then.
    let n = 0
    for (const table of ['agentd_job_runs', 'pgboss.job']) {
      const { rows } = await db.query(`SELECT to_regclass('${table}') IS NOT NULL AS there`)
      if (rows[0].there) n += (await db.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n
    }
    return n
  } finally { await db.close() }
}

/** Makes `to` (replacing it); returns why not when it could not (never throws: the build goes on without it). */
export async function makePreparedSeed (root, to) {
  try { return await make(root, to) } catch (err) { return err.message }
}

async function make (root, to) {
  const tmp = mkdtempSync(path.join(tmpdir(), 'agentd-prepared-seed-'))
  try {
    const port = await freePort()
    // Only PATH and HOME: no POSTGRES_*, REDIS_URI or NEO4J_URI from the caller's shell, so every section is embedded.
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', AGENT_DATA_DIR: tmp, AGENT_PLUGINS_FILE: path.join(root, 'plugins.json'), MCP_SERVERS_FILE: path.join(root, 'mcp_servers.json'), AGENT_LOG_LEVEL: 'error', API_PORT: String(port) }
    const child = spawn(process.execPath, ['--conditions=agentd-compiled', path.join(root, 'dist', 'core', 'main.js')], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] })
    const exited = new Promise(resolve => child.once('exit', resolve))
    const ok = await healthy(port, child, 120_000)
    child.kill('SIGTERM')
    const code = await exited
    if (!ok) return 'the compiled server did not become healthy'
    if (code !== 0) return `the compiled server exited ${code} when stopped`
    const dir = path.join(tmp, 'pglite')
    if (!existsSync(path.join(dir, 'PG_VERSION'))) return 'the server left no PGlite folder'
    const n = await leftovers(dir)
    if (n !== 0) return `the folder holds ${n} job rows from the start`
    rmSync(to, { recursive: true, force: true })
    renameSync(dir, to)
    return undefined
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
}
