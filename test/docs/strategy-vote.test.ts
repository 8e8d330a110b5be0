// A third-party strategy shipped as an npm package (test/fixtures/strategy-vote, shown in
// docs/plugins.md): packed with `npm pack`, installed from the tarball into a project's
// node_modules outside the repository, loaded by package name through plugins.json, and
// run by the agent against the fake OpenAI upstream.
import t, { type Test } from 'tap'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { lstatSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs'
import path from 'node:path'
import { REPO, Workspace } from '../helpers/workspace.ts'
import { startAgent } from '../helpers/agent.ts'

const run = promisify(execFile)
const FIXTURE = path.join(REPO, 'test', 'fixtures', 'strategy-vote')
const npm = async (cwd: string, ...args: string[]): Promise<string> =>
  (await run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, timeout: 120_000 })).stdout.trim()

/** A project in a temp folder with the package installed from its tarball, and @agentd/sdk beside it. */
async function installedProject (t: Test): Promise<Workspace> {
  const ws = new Workspace('agentd-npm-strategy-')
  t.teardown(() => { ws.remove() })
  ws.write('package.json', JSON.stringify({ name: 'my-agentd', private: true, type: 'module' }))
  const tarball = (await npm(FIXTURE, 'pack', '--pack-destination', ws.dir)).split('\n').at(-1) ?? ''
  // The peer dependency is agentd's own SDK: linked to this checkout's, as an agentd install provides it.
  await npm(ws.dir, 'install', '--prefer-offline', '--legacy-peer-deps', '--ignore-scripts', path.join(ws.dir, tarball))
  mkdirSync(path.join(ws.dir, 'node_modules', '@agentd'), { recursive: true })
  symlinkSync(path.join(REPO, 'packages', 'sdk'), path.join(ws.dir, 'node_modules', '@agentd', 'sdk'), 'dir')
  return ws
}

t.test('a strategy installed from its npm tarball runs an agent task', async t => {
  const ws = await installedProject(t)
  const installed = path.join(ws.dir, 'node_modules', 'agentd-strategy-vote', 'index.js')
  t.ok(lstatSync(installed).isFile(), 'a copy unpacked from the tarball, not a link into the repository')

  const samples = ['Paris.', '<think>the capital of France</think>paris', 'Lyon']
  const h = await startAgent(t, {
    ws,
    tools: false,
    strategies: [],
    extraPlugins: [{ name: 'vote', module: 'agentd-strategy-vote', options: { samples: 3 } }],
    agent: { enable_planning: false },
    replies: { other: (_req, n) => ({ text: samples[n] ?? 'extra' }) },
  })
  const plugin = (await h.s.json('/api/plugins')).body.plugins.find((p: { name: string }) => p.name === 'vote')
  t.match(plugin, { module: 'agentd-strategy-vote', version: '1.0.0', status: 'loaded' })

  const r = await h.run({ task: 'What is the capital of France?', reasoning_strategy: 'vote' })
  t.equal(r.status, 200)
  t.match(r.body, { status: 'complete', strategy: 'vote', answer: 'Paris.', thinking: 'the capital of France', reasoning_steps: 3, iterations: 3, models_used: ['fake/m1'] })
  t.same(r.body.trace.filter((s: { type: string }) => s.type === 'candidate').map((s: { sample: number }) => s.sample), [1, 2, 3])
  t.match(r.body.trace.find((s: { type: string }) => s.type === 'score'), { content: '2 of 3 samples agree', votes: { paris: 2, lyon: 1 } })
  t.same(h.fake.completions.map(c => c.body.temperature), [0.8, 0.8, 0.8], 'each sample asks for a raised temperature')
})

t.test('docs/plugins.md shows the package\'s file as it is, under fifty lines, importing only the SDK and fastify-plugin', async t => {
  const file = readFileSync(path.join(FIXTURE, 'index.js'), 'utf8')
  const doc = readFileSync(path.join(REPO, 'docs', 'plugins.md'), 'utf8')
  t.equal(/```js\n(\/\/ A whole third-party strategy[\s\S]*?)```/.exec(doc)?.[1], file, 'the block in docs/plugins.md is the file')
  t.ok(file.trimEnd().split('\n').length < 50)
  const from = [...file.matchAll(/^import .* from '([^']+)'/gm)].map(m => m[1])
  t.same(from, ['fastify-plugin', '@agentd/sdk/kits/output'])
})
