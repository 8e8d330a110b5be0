import { spawn, execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import autocannon from 'autocannon'
const mode = process.argv[2]
if (mode === 'serve') {
  const { mkdtempSync, writeFileSync } = await import('node:fs')
  const { tmpdir } = await import('node:os')
  const path = await import('node:path')
  const REPO = '/work/main'
  const { Kernel } = await import('../core/kernel.ts')
  const dir = mkdtempSync(path.join(tmpdir(), 'agentd-dbt-'))
  const plugins: unknown[] = [{ name: 'tools-builtin', module: path.join(REPO, 'plugins/tools-builtin') }, { name: 'tools-api', module: path.join(REPO, 'plugins/tools-api') }]
  if (process.argv[3] === 'db') plugins.push({ name: 'memory-sql', module: path.join(REPO, 'plugins/memory-sql') })
  writeFileSync(path.join(dir, 'plugins.json'), JSON.stringify({ plugins }))
  const kernel = new Kernel({ cwd: dir, env: { PATH: process.env.PATH, API_PORT: '0', AGENT_LOG_LEVEL: 'warn', AGENT_DATA_DIR: path.join(dir, 'data') }, watch: false })
  const v = process.argv[3]
  if (v === 'pgl-import') await import('@electric-sql/pglite')
  if (v === 'pgl-create') { const { PGlite } = await import('@electric-sql/pglite'); const pg = await PGlite.create(); await pg.query('select 1'); (globalThis as any).keep = pg }
  if (v === 'openai-import') await import('openai')
  if (v === 'zod-import') await import('zod')
  if (v === 'kysely-import') await import('kysely')
  if (v === 'pgonly-import') await import('pg')
  if (v === 'pg-import') { await import('pg'); await import('kysely') }
  const addr = await kernel.start()
  process.stdout.write(`PORT ${addr.port}\n`)
} else {
  execFileSync('taskset', ['-cp', '0', String(process.pid)], { stdio: 'ignore' })
  const child = spawn('taskset', ['-c', '1', process.execPath, '--import=tsx', process.argv[1], 'serve', mode], { stdio: ['ignore', 'pipe', 'inherit'] })
  const port = await new Promise<number>(r => { let buf = ""; child.stdout!.on("data", d => { buf += String(d); const m = /PORT (\d+)/.exec(buf); if (m) r(Number(m[1])) }) })
  const pid = child.pid!
  const threads = (): Map<string, number> => {
    const m = new Map<string, number>()
    for (const t of readdirSync(`/proc/${pid}/task`)) {
      const st = readFileSync(`/proc/${pid}/task/${t}/stat`, 'utf8')
      const name = st.slice(st.indexOf('(') + 1, st.lastIndexOf(')'))
      const f = st.slice(st.lastIndexOf(')') + 2).split(' ')
      const ticks = Number(f[11]) + Number(f[12])
      m.set(`${name}#${t}`, ticks)
    }
    return m
  }
  await autocannon({ url: `http://127.0.0.1:${port}/api/health`, connections: 50, duration: 3 })
  const a = threads()
  const r = await autocannon({ url: `http://127.0.0.1:${port}/api/health`, connections: 50, duration: 8 })
  const b = threads()
  const rows = [...b].map(([k, v]) => [k, v - (a.get(k) ?? 0)] as const).filter(([, d]) => d > 0).sort((x, y) => y[1] - x[1])
  console.log(mode, 'rps', r.requests.average, 'total', r.requests.total, rows.map(([k, d]) => `${k}:${d * 10}ms`).join(' '))
  child.kill('SIGKILL')
  process.exit(0)
}
