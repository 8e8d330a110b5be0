// node .scratch/first200.mjs [rounds]: spawn → first 200 from /api/index, agentd (npm start's flags) vs bare fastify
import { spawn } from 'node:child_process'
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
const REPO = '/work/main'
const rounds = Number(process.argv[2] ?? 5)
const bare = path.join(REPO, 'node_modules', '.bare.mjs')
writeFileSync(bare, `import Fastify from 'fastify'\nconst app = Fastify()\napp.get('/api/index', async () => ({ message: 'hello' }))\nawait app.listen({ port: Number(process.env.API_PORT), host: '127.0.0.1' })\n`)
const { scripts } = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8'))
const [, ...args] = scripts.start.trim().split(/\s+/)
const agentd = [...args.slice(0, -1), ...(process.env.EXTRA ? process.env.EXTRA.split(' ') : []), path.join(REPO, args.at(-1))]
const tmp = mkdtempSync(path.join(tmpdir(), 'f200-'))
let port = 41000
async function one (argv, env) {
  const p = port++
  const t0 = performance.now()
  const c = spawn(process.execPath, argv, { cwd: REPO, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env, API_PORT: String(p) }, stdio: ['ignore', 'ignore', 'inherit'] })
  for (;;) {
    try { const r = await fetch(`http://127.0.0.1:${p}/api/index`); if (r.status === 200) break } catch {}
    await new Promise(r => setTimeout(r, 3))
  }
  const ms = performance.now() - t0
  c.kill('SIGTERM'); await new Promise(r => c.once('exit', r))
  return ms
}
const a = [], b = []
for (let i = 0; i < rounds; i++) {
  b.push(await one([bare], {}))
  a.push(await one(agentd, { AGENT_DATA_DIR: path.join(tmp, 'd' + i), AGENT_PLUGINS_FILE: path.join(REPO, 'plugins.json'), MCP_SERVERS_FILE: path.join(REPO, 'mcp_servers.json'), AGENT_LOG_LEVEL: 'warn' }))
}
const med = xs => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]
console.log(`agentd ${med(a).toFixed(0)} (${a.map(x => x.toFixed(0))}) bare ${med(b).toFixed(0)} (${b.map(x => x.toFixed(0))}) ratio ${(med(a) / med(b)).toFixed(2)}`)
rmSync(tmp, { recursive: true, force: true }); rmSync(bare)
