import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PerformanceObserver } from 'node:perf_hooks'
import autocannon from 'autocannon'
const REPO = '/work/main'
const withDb = process.argv[2] === 'db'
const { Kernel } = await import('../core/kernel.ts')
const dir = mkdtempSync(path.join(tmpdir(), 'agentd-dbprof-'))
const plugins: unknown[] = [
  { name: 'tools-builtin', module: path.join(REPO, 'plugins/tools-builtin') },
  { name: 'tools-api', module: path.join(REPO, 'plugins/tools-api') },
]
if (withDb) plugins.push({ name: 'memory-sql', module: path.join(REPO, 'plugins/memory-sql') })
writeFileSync(path.join(dir, 'plugins.json'), JSON.stringify({ plugins }))
const kernel = new Kernel({ cwd: dir, env: { PATH: process.env.PATH, API_PORT: '0', AGENT_LOG_LEVEL: 'warn', AGENT_DATA_DIR: path.join(dir, 'data') }, watch: false })
const addr = await kernel.start()
let gcMs = 0; let gcN = 0; const kinds: Record<number, number> = {}
new PerformanceObserver(list => { for (const e of list.getEntries()) { gcMs += e.duration; gcN++; const k = (e as any).detail?.kind ?? 0; kinds[k] = (kinds[k] ?? 0) + e.duration } }).observe({ entryTypes: ['gc'] })
const mu = process.memoryUsage()
console.log(withDb ? 'db' : 'plain', 'heapUsed MB', (mu.heapUsed / 1e6).toFixed(1), 'heapTotal', (mu.heapTotal / 1e6).toFixed(1))
await autocannon({ url: `http://127.0.0.1:${addr.port}/api/health`, connections: 50, duration: 2 })
gcMs = 0; gcN = 0; for (const k in kinds) delete kinds[k]
const c0 = process.cpuUsage()
const r = await autocannon({ url: `http://127.0.0.1:${addr.port}/api/health`, connections: 50, duration: 5 })
const c = process.cpuUsage(c0)
console.log(`rps ${r.requests.average} gc ${gcMs.toFixed(0)} ms in ${gcN} (by kind ${JSON.stringify(Object.fromEntries(Object.entries(kinds).map(([k, v]) => [k, Math.round(v)])))}) proc cpu ${(c.user + c.system) / 1000} ms`)
await kernel.close()
process.exit(0)
