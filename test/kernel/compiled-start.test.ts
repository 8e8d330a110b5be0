// `npm start` runs compiled JavaScript: the kernel from dist/, each plugins.json path into
// the source tree from its compiled twin, the SDK from packages/sdk/dist. Node 20 cannot
// load a .ts file without a loader, so a plugin that slipped back to its source, or an
// asset the build forgot (the cld3 worker, the NLLB language table), fails this test.
import t from 'tap'
import { spawn, spawnSync } from 'node:child_process'
import net from 'node:net'
import { freePort } from '../helpers/net.ts'
import path from 'node:path'
import { REPO, Workspace, repoPlugin } from '../helpers/workspace.ts'
import { pollUntil } from '../helpers/poll.ts'

t.test('the compiled server starts, loads plugins from dist and answers ready', async t => {
  const build = spawnSync(process.execPath, [path.join(REPO, 'scripts', 'build.mjs'), '--if-stale'], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } })
  t.equal(build.status, 0, `build: ${build.stderr}${build.stdout}`)
  const ws = new Workspace()
  ws.writePlugins(['tools-builtin', 'prompts', 'providers-api', 'chat', 'language-detect', 'translation'].map(name => ({ name, module: repoPlugin(name) })))
  const port = await freePort()
  // No --import=tsx: a .ts module anywhere on the path is an error here.
  const child = spawn(process.execPath, ['--conditions=agentd-compiled', path.join(REPO, 'dist', 'core', 'main.js')], {
    cwd: ws.dir,
    env: { PATH: process.env.PATH, API_PORT: String(port), AGENT_DATA_DIR: path.join(ws.dir, 'data'), AGENT_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (c: Buffer) => { output += c.toString() })
  child.stderr.on('data', (c: Buffer) => { output += c.toString() })
  t.teardown(async () => {
    if (child.exitCode === null) { child.kill('SIGTERM'); await new Promise(resolve => child.once('exit', resolve)) }
    ws.remove()
  })
  const health = await pollUntil(async () => {
    try { return await (await fetch(`http://127.0.0.1:${port}/api/health`)).json() as Record<string, unknown> } catch { return {} }
  }, h => h.ready === true, 60_000, 100)
  t.equal(health.ready, true, `ready; server output: ${output}`)
  const plugins = await (await fetch(`http://127.0.0.1:${port}/api/plugins`)).json() as { plugins: Array<{ name: string, status: string }> }
  t.same(plugins.plugins.map(p => p.status), plugins.plugins.map(() => 'loaded'), 'every plugin loaded from its compiled twin')
  const detected = await (await fetch(`http://127.0.0.1:${port}/api/tools/language-detect-20`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'Das ist ein ganz normaler deutscher Satz über das Wetter.' }) })).json() as { detected_language?: string }
  t.equal(detected.detected_language, 'de', 'the cld3 worker (an asset beside the code) runs')
  const languages = await fetch(`http://127.0.0.1:${port}/api/tools/languages`)
  t.equal(languages.status, 200, 'the NLLB language table (an asset beside the code) is found')
  t.ok((((await languages.json()) as { count?: number }).count ?? 0) > 200, 'with its 200+ languages')
  const bad = await fetch(`http://127.0.0.1:${port}/api/chat/sessions/not-a-uuid`)
  t.equal(bad.status, 400, 'a malformed uuid is a 400: format checks run compiled')
  const unknown = await fetch(`http://127.0.0.1:${port}/api/chat/sessions/0b0c7f4e-8c3a-4c1e-9d7e-2f1a3b4c5d6e`)
  t.equal(unknown.status, 404, 'a well-formed uuid passes the check')
})

t.test('compiled, the SDK serves one bundled TypeBox and registers the string formats into it', async t => {
  const build = spawnSync(process.execPath, [path.join(REPO, 'scripts', 'build.mjs'), '--if-stale'], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } })
  t.equal(build.status, 0, `build: ${build.stderr}${build.stdout}`)
  // "byte" (base64) is one of ajv-formats' that TypeBox lacks; a format TypeBox does not know
  // passes every value, so a check that fails proves the registration reached the instance
  // that compiles the schemas.
  const probe = `
    import { registerFormats } from '@agentd/sdk'
    import { Compile } from '@agentd/sdk/typebox/compile'
    import { Type } from '@agentd/sdk/typebox'
    registerFormats()
    const c = Compile(Type.String({ format: 'byte' }))
    const url = import.meta.resolve('@agentd/sdk/typebox')
    console.log(JSON.stringify({ bad: c.Check('not base64!'), good: c.Check('aGVsbG8='), url }))`
  const r = spawnSync(process.execPath, ['--conditions=agentd-compiled', '--input-type=module', '-e', probe], { cwd: REPO, encoding: 'utf8', env: { PATH: process.env.PATH } })
  t.equal(r.status, 0, r.stderr)
  const out = JSON.parse(r.stdout) as { bad: boolean, good: boolean, url: string }
  t.match(out.url, /packages\/sdk\/dist\/vendor\/typebox\/index\.js$/, 'the bundle, not node_modules/typebox')
  t.equal(out.bad, false, 'a value that is not base64 fails')
  t.equal(out.good, true, 'base64 passes')
})

t.test('npm start passes SIGTERM to the server, which cuts what does not drain in AGENT_DRAIN_TIMEOUT_MS and exits', async t => {
  const build = spawnSync(process.execPath, [path.join(REPO, 'scripts', 'build.mjs'), '--if-stale'], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } })
  t.equal(build.status, 0, `build: ${build.stderr}${build.stdout}`)
  const ws = new Workspace()
  ws.writePlugins([{ name: 'tools-builtin', module: repoPlugin('tools-builtin') }])
  const port = await freePort()
  const npm = spawn('npm', ['start', '--silent'], {
    cwd: REPO,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, API_PORT: String(port), AGENT_DATA_DIR: path.join(ws.dir, 'data'), AGENT_PLUGINS_FILE: path.join(ws.dir, 'plugins.json'), AGENT_LOG_LEVEL: 'info', AGENT_DRAIN_TIMEOUT_MS: '300' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  npm.stdout.on('data', (c: Buffer) => { output += c.toString() })
  npm.stderr.on('data', (c: Buffer) => { output += c.toString() })
  const npmExited = new Promise<number | null>(resolve => npm.once('exit', code => { resolve(code) }))
  let serverPid: number | undefined
  t.teardown(async () => {
    if (serverPid !== undefined) try { process.kill(serverPid, 'SIGKILL') } catch { /* gone */ }
    if (npm.exitCode === null) npm.kill('SIGKILL')
    ws.remove()
  })
  const ready = await pollUntil(async () => {
    try { return await (await fetch(`http://127.0.0.1:${port}/api/health`)).json() as Record<string, unknown> } catch { return {} }
  }, h => h.ready === true, 60_000, 100)
  t.equal(ready.ready, true, `ready; output: ${output}`)
  serverPid = Number(/"pid":(\d+)/.exec(output)?.[1])
  t.not(serverPid, npm.pid, 'the server is its own process under npm')
  // A request whose body never completes: only the drain time limit can end it.
  const stuck = net.connect(port, '127.0.0.1')
  await new Promise(resolve => stuck.once('connect', resolve))
  const stuckClosed = new Promise(resolve => stuck.once('close', resolve))
  stuck.on('error', () => undefined)
  // `Expect: 100-continue`: the server answers "100 Continue" once it has parsed the headers,
  // so the signal below lands while this request is in flight, not before it arrived.
  const inFlight = new Promise(resolve => stuck.once('data', resolve))
  stuck.write('POST /api/plugins/reload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n')
  t.match(String(await inFlight), /^HTTP\/1\.1 100 Continue/, 'the server holds the request, waiting for its body')
  stuck.write('{')

  npm.kill('SIGTERM')
  await stuckClosed
  const gone = await pollUntil(() => { try { process.kill(serverPid!, 0); return false } catch { return true } }, g => g, 30_000)
  t.equal(gone, true, `the server process exited; output: ${output}`)
  t.match(output, /shutting down/, 'it shut down on the signal npm passed on')
  t.match(output, /drain timeout|cut/i, 'cutting the request that did not finish')
  await npmExited
  t.equal(await new Promise(resolve => { const s = net.connect(port, '127.0.0.1'); s.once('connect', () => { s.destroy(); resolve('connected') }); s.once('error', (e: NodeJS.ErrnoException) => { resolve(e.code) }) }), 'ECONNREFUSED', 'the port is closed')
})
