import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
const p = 41999
const t0 = performance.now()
const c = spawn(process.execPath, ['--cpu-prof', '--cpu-prof-dir=/tmp/prof', '--cpu-prof-interval=200', '--max-semi-space-size=4', '--conditions=agentd-compiled', '--enable-source-maps', 'dist/core/main.js'], { cwd: '/work/main', env: { PATH: process.env.PATH, HOME: process.env.HOME, API_PORT: String(p), AGENT_DATA_DIR: '/tmp/prof-data-' + Date.now(), AGENT_LOG_LEVEL: 'warn' }, stdio: ['ignore', 'ignore', 'inherit'] })
for (;;) { try { const r = await fetch(`http://127.0.0.1:${p}/api/index`); if (r.status === 200) break } catch {} ; await new Promise(r => setTimeout(r, 3)) }
console.log('first 200', (performance.now() - t0).toFixed(0))
c.kill('SIGTERM'); await new Promise(r => c.once('exit', r))
