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
