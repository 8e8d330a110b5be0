import { spawn } from 'node:child_process'
const p = 41888
const c = spawn(process.execPath, ['--import=./.scratch/count.mjs', '--conditions=agentd-compiled', 'dist/core/main.js'], { cwd: '/work/main', env: { PATH: process.env.PATH, HOME: process.env.HOME, API_PORT: String(p), AGENT_DATA_DIR: '/tmp/cnt-data-' + Date.now(), AGENT_LOG_LEVEL: 'warn' }, stdio: ['ignore', 'ignore', 'inherit'] })
for (;;) { try { const r = await fetch(`http://127.0.0.1:${p}/api/index`); if (r.status === 200) break } catch {} ; await new Promise(r => setTimeout(r, 3)) }
const { readFileSync } = await import('node:fs')
console.log('at first 200:', readFileSync('/tmp/loaded-urls.txt', 'utf8').split('\n').length)
await new Promise(r => setTimeout(r, 100))
c.kill('SIGTERM'); await new Promise(r => c.once('exit', r))
