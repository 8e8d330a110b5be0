// data/config.json is a live layer: a valid change rebuilds the generation, an invalid one
// is refused whole and the old configuration keeps serving.
import t, { type Test } from 'tap'
import { startKernel, type Started } from '../helpers/kernel.ts'
import { Workspace } from '../helpers/workspace.ts'
import { until } from '../helpers/poll.ts'

// data/config.json's sections belong to plugins: this one owns the provider sections.
const CONFIG_OWNER = [{ name: 'provider-config', module: new URL('./fixtures/provider-config', import.meta.url).pathname }]

t.test('a change to data/config.json reloads; an invalid one never half-applies', async t => {
  const s = await startKernel(t, { plugins: CONFIG_OWNER, config: { preferences: { default_model: 'llama3.2' } } })
  t.equal(s.kernel.current?.app.agentConfig.lookup('preferences.default_model', 'DEFAULT_MODEL'), 'llama3.2')
  let reloaded = s.nextReload()
  s.ws.writeConfig({ preferences: { default_model: 'openai/gpt-4o-mini' } })
  await reloaded
  t.equal(s.kernel.current?.app.agentConfig.lookup('preferences.default_model', 'DEFAULT_MODEL'), 'openai/gpt-4o-mini')

  reloaded = s.nextReload()
  s.ws.writeConfig({ preferences: { default_model: 'x' }, llm_settings: { default_temperature: 9 } })
  await reloaded
  const plugins = (await s.json('/api/plugins')).body
  t.equal(plugins.last_reload.ok, false)
  t.match(plugins.last_reload.error, /llm_settings\.default_temperature/)
  t.equal(s.kernel.current?.app.agentConfig.lookup('preferences.default_model'), 'openai/gpt-4o-mini', 'old config still in force')
})

t.test('lookup priority: config file, then environment, then default', async t => {
  const s = await startKernel(t, { plugins: CONFIG_OWNER, env: { DEFAULT_MODEL: 'from-env', LOCAL_MODEL_TIMEOUT: '600' }, config: { providers: { local: { timeout: 300 } } } })
  const c = s.kernel.current!.app.agentConfig
  t.equal(c.lookup('preferences.default_model', 'DEFAULT_MODEL', 'llama3.2'), 'from-env')
  t.equal(c.lookupNumber('providers.local.timeout', 'LOCAL_MODEL_TIMEOUT', 600), 300)
  t.equal(c.lookup('preferences.nothing', 'NOT_SET_ANYWHERE', 'dflt'), 'dflt')
})

/** A kernel started in a workspace whose `.env` holds `dotenv`; `env` are the process variables. */
async function startWithDotenv (t: Test, dotenv: string, env: Record<string, string>): Promise<{ s: Started, ws: Workspace }> {
  const ws = new Workspace()
  t.teardown(() => { ws.remove() })
  ws.write('.env', dotenv)
  return { s: await startKernel(t, { ws, plugins: [], env }), ws }
}

t.test('.env is read, and real environment variables win over it', async t => {
  const { s } = await startWithDotenv(t, 'DEFAULT_MODEL=from-dotenv\nAGENT_MAX_CHAT_LENGTH=42\n', { DEFAULT_MODEL: 'from-real-env' })
  t.equal(s.kernel.env.DEFAULT_MODEL, 'from-real-env')
  t.equal(s.kernel.env.AGENT_MAX_CHAT_LENGTH, '42')
})

t.test('rewriting a watched file with the same contents does not rebuild the generation', async t => {
  const s = await startKernel(t, { plugins: CONFIG_OWNER, config: { preferences: { default_model: 'm' } }, logLevel: 'debug' })
  s.ws.writeConfig({ preferences: { default_model: 'm' } })
  s.ws.writePlugins(CONFIG_OWNER)
  // The watcher has seen the writes once the kernel says it compared and found no change.
  await until('the watcher to compare the rewritten files', () => s.logs.some(l => l.msg === 'watched files unchanged; no reload'))
  t.equal(s.kernel.api.generation(), 1, 'the same bytes rewritten rebuilt nothing')
  const reloaded = s.nextReload()
  s.ws.writeConfig({ preferences: { default_model: 'n' } })
  await reloaded
  t.equal(s.kernel.api.generation(), 2, 'a real change still reloads')
})

t.test('editing .env rebuilds the generation with the new values; process variables still win', async t => {
  const { s, ws } = await startWithDotenv(t, 'POSTGRES_URI=postgres://a/one\nDEFAULT_MODEL=from-dotenv\n', { DEFAULT_MODEL: 'from-process' })
  t.equal(s.kernel.current?.app.agentConfig.env.POSTGRES_URI, 'postgres://a/one')
  const reloaded = s.nextReload()
  ws.write('.env', 'POSTGRES_URI=postgres://b/two\nDEFAULT_MODEL=from-dotenv-2\n')
  await reloaded
  t.equal(s.kernel.api.lastReload()?.ok, true)
  t.equal(s.kernel.current?.app.agentConfig.env.POSTGRES_URI, 'postgres://b/two', 'the new .env value reaches plugins')
  t.equal(s.kernel.current?.app.agentConfig.env.DEFAULT_MODEL, 'from-process', 'a process variable still wins')
})

t.test('a config section no loaded plugin declares is refused, naming the key', async t => {
  const s = await startKernel(t, { plugins: [], config: {} })
  const reloaded = s.nextReload()
  s.ws.writeConfig({ preferences: { default_model: 'm' } })
  await reloaded
  const plugins = (await s.json('/api/plugins')).body
  t.equal(plugins.last_reload.ok, false)
  t.match(plugins.last_reload.error, /unknown key\(s\): preferences/)
})
