#!/usr/bin/env node
// `npm ci --omit=dev && npm start` works, checked for real: the working tree's files (what
// git tracks or would track, so no node_modules, dist or data) are copied to a temporary
// folder, installed there without dev dependencies (from npm's cache when it has them:
// --prefer-offline), which runs the build (`prepare`), then `npm start` on a free port and
// a new data folder until GET /api/health answers 200 ready, then SIGTERM.
//
// Too slow for the test suite (minutes on two cores: the install and the build), so
// .ci/run runs it before `npm test`; it writes its result to reports/omit-dev-start.json,
// and test/packaging/omit-dev-start.test.ts fails the suite when that result is a failure
// (so the runner's last line still counts it). Exit code 0 when it worked, 1 otherwise.
import { spawn, execFileSync } from 'node:child_process'
import { cpSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const RESULT = path.join(root, 'reports', 'omit-dev-start.json')
const INSTALL_TIMEOUT_MS = 10 * 60_000
const START_TIMEOUT_MS = 120_000
const STOP_TIMEOUT_MS = 30_000

const work = mkdtempSync(path.join(tmpdir(), 'agentd-omit-dev-'))
const app = path.join(work, 'app')
const log = path.join(work, 'log.txt')
const seconds = (t0) => Math.round((performance.now() - t0) / 100) / 10
const tail = () => { try { return readFileSync(log, 'utf8').split('\n').filter(l => !l.startsWith('npm warn')).slice(-30).join('\n') } catch { return '' } }
const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' })

/** A child's run, its output appended to the log; rejects on a non-zero exit or the time limit. */
function run (cmd, args, opts, limitMs) {
  return new Promise((resolve, reject) => {
    const out = createWriteStream(log, { flags: 'a' })
    const child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] })
    child.stdout.pipe(out, { end: false }); child.stderr.pipe(out, { end: false })
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`${cmd} ${args.join(' ')} did not finish within ${limitMs / 1000} s`)) }, limitMs)
    child.on('exit', code => { clearTimeout(timer); out.end(); code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} exited with ${code}`)) })
  })
}

async function freePort () {
  const s = net.createServer()
  await new Promise(resolve => s.listen(0, '127.0.0.1', resolve))
  const { port } = s.address()
  await new Promise(resolve => s.close(resolve))
  return port
}

/** `npm start` until /api/health answers 200 ready; then SIGTERM, and the process must exit. */
async function startAndStop () {
  const port = await freePort()
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, API_PORT: String(port), AGENT_DATA_DIR: path.join(work, 'data'), AGENT_LOG_LEVEL: 'warn' }
  const out = createWriteStream(log, { flags: 'a' })
  const server = spawn('npm', ['start'], { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'] })
  server.stdout.pipe(out); server.stderr.pipe(out)
  let exited = null
  const gone = new Promise(resolve => server.on('exit', (code, signal) => { exited = { code, signal }; resolve() }))
  const t0 = performance.now()
  try {
    for (;;) {
      if (exited !== null) throw new Error(`npm start exited (${exited.code ?? exited.signal}) before /api/health answered ready`)
      if (performance.now() - t0 > START_TIMEOUT_MS) throw new Error(`npm start: /api/health did not answer 200 ready within ${START_TIMEOUT_MS / 1000} s`)
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/health`)
        if (res.status === 200 && (await res.json()).ready === true) break
      } catch { /* not listening yet */ }
      await new Promise(resolve => setTimeout(resolve, 250))
    }
    return seconds(t0)
  } finally {
    if (exited === null) server.kill('SIGTERM')
    const stopped = await Promise.race([gone.then(() => true), new Promise(resolve => setTimeout(() => resolve(false), STOP_TIMEOUT_MS))])
    if (!stopped) { server.kill('SIGKILL'); throw new Error(`npm start did not exit within ${STOP_TIMEOUT_MS / 1000} s of SIGTERM`) }
  }
}

const result = { ok: false, commit: 'unknown', at: new Date().toISOString() }
try {
  result.commit = git('rev-parse', 'HEAD').trim()
  // The files git tracks or would track (untracked but not ignored), as they are in the working tree.
  const files = git('ls-files', '-z', '--cached', '--others', '--exclude-standard').split('\0').filter(f => f !== '')
  for (const f of files) {
    const from = path.join(root, f)
    try { cpSync(from, path.join(app, f)) } catch (err) { if (err.code !== 'ENOENT') throw err } // deleted, not yet committed
  }
  mkdirSync(path.join(app, 'data'), { recursive: true })
  const t0 = performance.now()
  await run('npm', ['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: app, env: { ...process.env, NODE_OPTIONS: '' } }, INSTALL_TIMEOUT_MS)
  result.install_s = seconds(t0)
  result.healthy_s = await startAndStop()
  const dev = Object.keys(JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).devDependencies ?? {})
  result.dev_dependencies_installed = dev.filter(d => existsSync(path.join(app, 'node_modules', d)))
  if (result.dev_dependencies_installed.length > 0) throw new Error(`dev dependencies were installed anyway: ${result.dev_dependencies_installed.join(', ')}`)
  result.ok = true
  console.log(`omit-dev check: npm ci --omit=dev installed and built in ${result.install_s} s; npm start answered /api/health ready in ${result.healthy_s} s and stopped on SIGTERM: OK`)
} catch (err) {
  result.error = err.message
  result.log_tail = tail()
  console.log(`omit-dev check: FAILED: ${err.message}\n${result.log_tail}`)
} finally {
  mkdirSync(path.dirname(RESULT), { recursive: true })
  writeFileSync(RESULT, JSON.stringify(result, null, 2))
  rmSync(work, { recursive: true, force: true })
}
process.exitCode = result.ok ? 0 : 1
