import t from 'tap'
import { mkdtempSync, readFileSync, rmSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { providerConfig } from '@agentd/sdk/kits/provider'
import { runtimeConfigSchema } from './config-schema.ts'
import { parseRate, updateRuntimeConfig, readRuntimeConfig, readSettings } from './config.ts'

const tmp = (t: { teardown: (fn: () => void) => void }): string => {
  const dir = mkdtempSync(path.join(tmpdir(), 'agentd-config-'))
  t.teardown(() => { rmSync(dir, { recursive: true, force: true }) })
  return dir
}

// data/config.json as a server with the provider plugins loaded sees it.
const SCHEMA = runtimeConfigSchema(providerConfig)

t.test('parseRate', async t => {
  t.same(parseRate('100/m'), { max: 100, windowMs: 60_000 })
  t.same(parseRate('5/10s'), { max: 5, windowMs: 10_000 })
  t.throws(() => parseRate('lots'), /must look like "100\/m"/)
})

t.test('settings defaults follow DECISIONS.md', async t => {
  const s = readSettings({}, '/srv')
  t.equal(s.host, '127.0.0.1')
  t.equal(s.port, 12319)
  t.equal(s.dataDir, '/srv/data')
  t.equal(s.apiKeyRequired, false)
  t.equal(s.rateLimitEnabled, false)
  t.throws(() => readSettings({ API_PORT: 'http' }, '/srv'), /API_PORT must be a non-negative integer/)
})

t.test('an update merges, validates the whole and writes atomically', async t => {
  const dir = tmp(t)
  await updateRuntimeConfig(dir, SCHEMA, { providers: { openai: { api_key: 'a' } } })
  await updateRuntimeConfig(dir, SCHEMA, { preferences: { default_model: 'm' } })
  t.same(await readRuntimeConfig(dir, SCHEMA), { providers: { openai: { api_key: 'a' } }, preferences: { default_model: 'm' } })
  await t.rejects(updateRuntimeConfig(dir, SCHEMA, { llm_settings: { default_temperature: 'hot' } }), /llm_settings.default_temperature/)
  await t.rejects(updateRuntimeConfig(dir, SCHEMA, { nonsense: 1 }), /unknown key\(s\): nonsense/)
  t.same(await readRuntimeConfig(dir, SCHEMA), { providers: { openai: { api_key: 'a' } }, preferences: { default_model: 'm' } }, 'a refused update changed nothing')
})

t.test('concurrent updates never tear the file and lose nothing', async t => {
  const dir = tmp(t)
  await Promise.all(Array.from({ length: 40 }, async (_, i) => await updateRuntimeConfig(dir, SCHEMA, { providers: { [`p${i}`]: { api_key: `key-${i}` } } })))
  const parsed = JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8')) as { providers: Record<string, unknown> }
  t.equal(Object.keys(parsed.providers).length, 40)
  t.same(readdirSync(dir).filter(f => f.endsWith('.tmp')), [], 'no temp files left behind')
})

t.test('an invalid config file is refused with the path of the bad field', async t => {
  const dir = tmp(t)
  const { writeFileSync } = await import('node:fs')
  writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ preferences: { enable_memory_by_default: 'yes' } }))
  await t.rejects(readRuntimeConfig(dir, SCHEMA), /preferences\.enable_memory_by_default/)
  writeFileSync(path.join(dir, 'config.json'), '{ nope')
  await t.rejects(readRuntimeConfig(dir, SCHEMA), /not valid JSON/)
})

// ---- every layer pinned (issue 22, mutation testing) -------------------------------

t.test('parseRate: every unit, long names, spaces and case; a bad spec names the variable', async t => {
  t.same(parseRate('10/s'), { max: 10, windowMs: 1000 })
  t.same(parseRate('10/sec'), { max: 10, windowMs: 1000 })
  t.same(parseRate(' 7 / 2 Minute '), { max: 7, windowMs: 120_000 })
  t.same(parseRate('1000/h'), { max: 1000, windowMs: 3_600_000 })
  t.same(parseRate('5000/D'), { max: 5000, windowMs: 86_400_000 })
  for (const bad of ['100', '/m', '100/w', 'x100/m', '100/m!', '']) t.throws(() => parseRate(bad), { message: `AGENT_RATE_LIMIT must look like "100/m" (count per s, m, h or d), got "${bad}".` }, JSON.stringify(bad))
})

t.test('settings: every variable read, paths against the working folder', async t => {
  const s = readSettings({
    API_HOST: '0.0.0.0', API_PORT: '8080', AGENT_DATA_DIR: 'state', AGENT_PLUGINS_FILE: '/etc/agentd/plugins.json',
    AGENT_API_KEY_REQUIRED: 'yes', AGENT_API_KEY: 'k', AGENT_RATE_LIMIT_ENABLED: 'on', AGENT_RATE_LIMIT: '5/10s',
    AGENT_LOG_LEVEL: 'warn', AGENT_DRAIN_TIMEOUT_MS: '7', AGENT_RELOAD_DEBOUNCE_MS: '8', AGENT_HEALTH_TIMEOUT_MS: '9',
    AGENT_CORS_ORIGINS: '*', REDIS_URI: 'redis://shared:6379', AGENT_RATE_LIMIT_NAMESPACE: 'rl:',
    AGENT_ALLOWED_HOSTS: 'agentd.example.org,*.lan', AGENT_REQUEST_TIMEOUT_MS: '11',
  }, '/srv')
  t.ok(s.allowedHosts.exact.has('agentd.example.org') && s.allowedHosts.suffixes.includes('.lan') && !s.allowedHosts.any, 'AGENT_ALLOWED_HOSTS')
  const { allowedHosts: _hosts, ...rest } = s
  t.same(rest, {
    host: '0.0.0.0', port: 8080, cwd: '/srv', dataDir: '/srv/state', pluginsFile: '/etc/agentd/plugins.json',
    apiKeyRequired: true, apiKey: 'k', rateLimitEnabled: true, rateLimit: { max: 5, windowMs: 10_000, spec: '5/10s' },
    logLevel: 'warn', drainTimeoutMs: 7, reloadDebounceMs: 8, corsOrigins: true, healthTimeoutMs: 9, requestTimeoutMs: 11,
    rateLimitRedis: { uri: 'redis://shared:6379', namespace: 'rl:' },
  })
  t.same(readSettings({ REDIS_URI: 'redis://a', AGENT_RATE_LIMIT_REDIS_URI: 'redis://b' }, '/srv').rateLimitRedis.uri, 'redis://b', 'a rate-limit Redis of its own wins')
  t.same(readSettings({}, '/srv').rateLimitRedis, { uri: undefined, namespace: 'agentd-rate-limit:' })
})

t.test('settings: the defaults', async t => {
  const s = readSettings({}, '/srv')
  t.equal(s.pluginsFile, '/srv/plugins.json')
  t.equal(s.apiKey, undefined)
  t.same(s.rateLimit, { max: 100, windowMs: 60_000, spec: '100/m' })
  t.equal(s.logLevel, 'info')
  t.equal(s.drainTimeoutMs, 30_000)
  t.equal(s.reloadDebounceMs, 150)
  t.equal(s.healthTimeoutMs, 5000)
  t.equal(s.cwd, '/srv')
  t.ok(Array.isArray(s.corsOrigins) && s.corsOrigins.length === 4, 'the loopback origins and the desktop-app (Tauri) ones only')
  t.equal(s.requestTimeoutMs, 120_000)
  t.equal(readSettings({ LOG_LEVEL: 'debug' }, '/srv').logLevel, 'debug', 'LOG_LEVEL when AGENT_LOG_LEVEL is not set')
  t.equal(readSettings({ LOG_LEVEL: 'debug', AGENT_LOG_LEVEL: 'error' }, '/srv').logLevel, 'error', 'AGENT_LOG_LEVEL wins')
})

t.test('settings: flags are true for 1/true/yes/on in any case, else false; empty is the default', async t => {
  for (const v of ['1', 'true', 'TRUE', 'Yes', 'on']) t.equal(readSettings({ AGENT_RATE_LIMIT_ENABLED: v }, '/srv').rateLimitEnabled, true, v)
  for (const v of ['0', 'false', 'no', 'off', 'enabled']) t.equal(readSettings({ AGENT_RATE_LIMIT_ENABLED: v }, '/srv').rateLimitEnabled, false, v)
  t.equal(readSettings({ AGENT_RATE_LIMIT_ENABLED: '' }, '/srv').rateLimitEnabled, false)
})

t.test('settings: a required API key must be set; an empty key is no key', async t => {
  const msg = 'AGENT_API_KEY_REQUIRED is true but AGENT_API_KEY is not set: set the key clients must send in X-API-Key.'
  t.throws(() => readSettings({ AGENT_API_KEY_REQUIRED: 'true' }, '/srv'), { message: msg })
  t.throws(() => readSettings({ AGENT_API_KEY_REQUIRED: 'true', AGENT_API_KEY: '' }, '/srv'), { message: msg })
  t.equal(readSettings({ AGENT_API_KEY: '' }, '/srv').apiKey, undefined)
  t.equal(readSettings({ AGENT_API_KEY: 'k' }, '/srv').apiKeyRequired, false, 'a key alone does not require one')
})

t.test('data/config.json: missing or blank is empty; valid is returned as validated', async t => {
  const dir = tmp(t)
  const { writeFileSync } = await import('node:fs')
  t.same(await readRuntimeConfig(dir, SCHEMA), {}, 'missing')
  writeFileSync(path.join(dir, 'config.json'), '  \n')
  t.same(await readRuntimeConfig(dir, SCHEMA), {}, 'blank')
  writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ providers: { openai: { timeout: 5 } } }))
  t.same(await readRuntimeConfig(dir, SCHEMA), { providers: { openai: { timeout: 5 } } })
})

t.test('data/config.json that cannot be read (a folder) is that error, not an empty config', async t => {
  const dir = tmp(t)
  const { mkdirSync } = await import('node:fs')
  mkdirSync(path.join(dir, 'config.json'))
  await t.rejects(readRuntimeConfig(dir, SCHEMA), { code: 'EISDIR' })
})

t.test('invalid JSON: a 400-class config error naming the file, without quoting the text (it may hold a key)', async t => {
  const dir = tmp(t)
  const { writeFileSync } = await import('node:fs')
  const file = path.join(dir, 'config.json')
  writeFileSync(file, '{"providers": {"openai": {"api_key": sk-secret-123}}}')
  const err = await readRuntimeConfig(dir, SCHEMA).then(() => undefined, (e: Error & { code?: string }) => e)
  t.equal(err?.code, 'AGENT_ERR_CONFIG_INVALID')
  t.match(err?.message, `${file} is not valid JSON (`)
  t.match(err?.message, /the text there \(not quoted: it may hold a secret\)/)
  t.match(err?.message, /; fix or delete it\.$/)
  t.notMatch(err?.message, 'sk-secret')
})

t.test('an invalid config file: the error carries the bad paths as details', async t => {
  const dir = tmp(t)
  const { writeFileSync } = await import('node:fs')
  writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ preferences: { enable_memory_by_default: 'yes' } }))
  const err = await readRuntimeConfig(dir, SCHEMA).then(() => undefined, (e: Error & { code?: string, details?: Array<{ path: string }> }) => e)
  t.equal(err?.code, 'AGENT_ERR_CONFIG_INVALID')
  t.match(err?.message, `${path.join(dir, 'config.json')} is invalid: `)
  t.match(err?.details, [{ path: /preferences.*enable_memory_by_default/ }])
})

t.test('deepMerge: objects merge at every depth; arrays, nulls and scalars replace', async t => {
  const { deepMerge } = await import('./config.ts')
  const base = { a: { b: { c: 1, d: 2 }, list: [1, 2] }, keep: true, gone: { x: 1 } }
  const out = deepMerge(base, { a: { b: { c: 9 }, list: [3] }, gone: null, added: { y: 1 } })
  t.same(out, { a: { b: { c: 9, d: 2 }, list: [3] }, keep: true, gone: null, added: { y: 1 } })
  t.same(deepMerge({ a: [1] }, { a: { b: 1 } }), { a: { b: 1 } }, 'an object over an array replaces it')
  t.same(deepMerge({ a: { b: 1 } }, { a: [2] }), { a: [2] }, 'an array over an object replaces it')
  t.same(base, { a: { b: { c: 1, d: 2 }, list: [1, 2] }, keep: true, gone: { x: 1 } }, 'the base is not changed')
})

t.test('an update onto an unreadable file is a 409 that writes nothing and says why', async t => {
  const dir = tmp(t)
  const { writeFileSync } = await import('node:fs')
  const file = path.join(dir, 'config.json')
  writeFileSync(file, JSON.stringify({ preferences: { enable_memory_by_default: 'yes' } }))
  const err = await updateRuntimeConfig(dir, SCHEMA, { providers: { openai: { api_key: 'a' } } }).then(() => undefined, (e: Error & { code?: string, statusCode?: number, details?: unknown[] }) => e)
  t.equal(err?.statusCode, 409)
  t.match(err?.message, `${file} is invalid: `)
  t.match(err?.message, /\. The update was not applied and nothing was written; retry once the file is fixed\.$/)
  t.ok((err?.details?.length ?? 0) > 0, 'with the bad paths')
  t.same(JSON.parse(readFileSync(file, 'utf8')), { preferences: { enable_memory_by_default: 'yes' } }, 'the file is as it was')
  writeFileSync(file, '{ nope')
  const json = await updateRuntimeConfig(dir, SCHEMA, {}).then(() => undefined, (e: Error & { statusCode?: number, details?: unknown }) => e)
  t.equal(json?.statusCode, 409)
  t.notOk(Object.hasOwn(json ?? {}, 'details'), 'a JSON error has no field paths')
  t.match(json?.message, /fix or delete it\. The update was not applied/)
})

t.test('an invalid update is a 400 with details; the file is written only 0600, with a final newline', async t => {
  const dir = tmp(t)
  const bad = await updateRuntimeConfig(dir, SCHEMA, { preferences: { enable_memory_by_default: 'yes' } }).then(() => undefined, (e: Error & { code?: string, statusCode?: number, details?: unknown[] }) => e)
  t.equal(bad?.code, 'AGENT_ERR_VALIDATION')
  t.match(bad?.message, /^Invalid configuration: .*enable_memory_by_default.*\.$/)
  t.ok((bad?.details?.length ?? 0) > 0)
  t.same(readdirSync(dir), [], 'nothing written')
  const { config } = await updateRuntimeConfig(path.join(dir, 'new', 'data'), SCHEMA, { providers: { openai: { api_key: 'a' } } })
  t.same(config, { providers: { openai: { api_key: 'a' } } }, 'the merged config is returned')
  const { statSync } = await import('node:fs')
  const file = path.join(dir, 'new', 'data', 'config.json')
  t.equal(statSync(file).mode & 0o777, 0o600, 'only the owner reads the keys in it')
  t.equal(readFileSync(file, 'utf8'), `${JSON.stringify({ providers: { openai: { api_key: 'a' } } }, null, 2)}\n`)
})

t.test('a failed update does not block the next one', async t => {
  const dir = tmp(t)
  await t.rejects(updateRuntimeConfig(dir, SCHEMA, { nonsense: 1 }))
  await updateRuntimeConfig(dir, SCHEMA, { preferences: { default_model: 'm' } })
  t.same(await readRuntimeConfig(dir, SCHEMA), { preferences: { default_model: 'm' } })
})

t.test('the runtime schema: every declared section optional, anything else refused', async t => {
  const { Type } = await import('@agentd/sdk/typebox')
  const { check } = await import('@agentd/sdk')
  const schema = runtimeConfigSchema({ a: Type.Object({ n: Type.Number() }), b: Type.String() })
  t.equal(check(schema, {}).ok, true, 'no section is required')
  t.equal(check(schema, { a: { n: 1 }, b: 'x' }).ok, true)
  t.equal(check(schema, { a: { n: 'one' } }).ok, false, 'a section is checked against its schema')
  t.equal(check(schema, { c: 1 }).ok, false, 'a key no module declares is refused')
  t.equal(check(runtimeConfigSchema({}), { any: 1 }).ok, false, 'with no sections, every key is refused')
})

t.test('plugins.json schema: names, modules, flags and nothing else', async t => {
  const { PluginsFileSchema } = await import('./config-schema.ts')
  const { check } = await import('@agentd/sdk')
  const ok = (v: unknown): boolean => check(PluginsFileSchema, v).ok
  t.equal(ok({ plugins: [{ name: 'chat', module: './plugins/chat', enabled: false, options: { a: 1 }, dependencies: ['prompts'] }] }), true)
  t.equal(ok({ plugins: [{ name: '@scope/x.y_z-1', module: 'pkg' }] }), true, 'the name may hold @ / . _ -')
  t.equal(ok({ plugins: [{ name: 'has space', module: 'x' }] }), false)
  t.equal(ok({ plugins: [{ name: '', module: 'x' }] }), false, 'a name is not empty')
  t.equal(ok({ plugins: [{ name: 'x', module: '' }] }), false, 'a module is not empty')
  t.equal(ok({ plugins: [{ name: 'x' }] }), false, 'a module is required')
  t.equal(ok({ plugins: [{ name: 'x', module: 'x', extra: 1 }] }), false, 'no unknown keys in an entry')
  t.equal(ok({ plugins: [], extra: 1 }), false, 'nor at the top')
  t.equal(ok({}), false, 'plugins is required')
  t.equal(ok({ plugins: [{ name: 'x', module: 'x', enabled: 'yes' }] }), false)
  t.equal(ok({ plugins: [{ name: 'x', module: 'x', dependencies: 'prompts' }] }), false)
})

t.test('invalid JSON deep in a long file: V8 quotes around the fault with "..." on both sides; none of it is shown', async t => {
  const dir = tmp(t)
  const { writeFileSync } = await import('node:fs')
  writeFileSync(path.join(dir, 'config.json'), '{"providers": {"openai": {"api_key": sk-secret-123-and-a-long-tail-of-text}}, "more": 1}')
  const err = await readRuntimeConfig(dir, SCHEMA).then(() => undefined, (e: Error) => e)
  t.match(err?.message, /\(Unexpected token 's', the text there \(not quoted: it may hold a secret\) is not valid JSON\); fix or delete it\.$/)
  t.notMatch(err?.message, /api_key|\.\.\./)
})

t.test('an update onto a config file that cannot be read at all: 409, the reason ending in one full stop, no details', async t => {
  const dir = tmp(t)
  const { mkdirSync } = await import('node:fs')
  mkdirSync(path.join(dir, 'config.json'))
  const err = await updateRuntimeConfig(dir, SCHEMA, {}).then(() => undefined, (e: Error & { statusCode?: number }) => e)
  t.equal(err?.statusCode, 409)
  t.match(err?.message, /^EISDIR: illegal operation on a directory, read\. The update was not applied/)
  t.notOk(Object.hasOwn(err ?? {}, 'details'), 'a read error has no field paths')
})

t.test('ensureDir makes the folder and its parents, and is happy when it exists', async t => {
  const { ensureDir } = await import('./config.ts')
  const { existsSync } = await import('node:fs')
  const dir = path.join(tmp(t), 'a', 'b')
  ensureDir(dir)
  t.ok(existsSync(dir))
  t.doesNotThrow(() => { ensureDir(dir) })
})

t.test('plugins.json: an entry without `enabled` is enabled', async t => {
  const { PluginsFileSchema } = await import('./config-schema.ts')
  const { check } = await import('@agentd/sdk')
  const res = check(PluginsFileSchema, { plugins: [{ name: 'x', module: 'x' }] })
  t.equal(res.ok && res.value.plugins[0].enabled, true)
})
