// The configuration a plugin reads (SPEC.md): data/config.json, then the environment,
// then the default; `.env` from the working folder under the real environment.
import t from 'tap'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { ConfigView, loadEnv } from './config-view.ts'
import type { ServerSettings } from './plugin.ts'

const settings = {} as ServerSettings
const view = (file: Record<string, unknown>, env: Record<string, string> = {}): ConfigView => new ConfigView(Object.freeze(env), settings, file)

t.test('fromFile: a dotted path into the file; anything missing or not an object on the way is undefined', async t => {
  const v = view({ providers: { openai: { api_key: 'k', timeout: 0, list: ['a'] } }, flat: 'x', nothing: null })
  t.equal(v.fromFile('providers.openai.api_key'), 'k')
  t.equal(v.fromFile('providers.openai.timeout'), 0)
  t.same(v.fromFile('providers.openai'), { api_key: 'k', timeout: 0, list: ['a'] })
  t.equal(v.fromFile('providers.openai.list.0'), 'a', 'arrays index too')
  t.equal(v.fromFile('providers.anthropic.api_key'), undefined)
  t.equal(v.fromFile('flat.deeper'), undefined, 'through a string')
  t.equal(v.fromFile('nothing.deeper'), undefined, 'through null')
  t.equal(v.fromFile('nothing'), null)
})

t.test('lookup: the file wins, then the environment, then the default', async t => {
  const env = { OPENAI_API_KEY: 'from-env' }
  t.equal(view({ providers: { openai: { api_key: 'from-file' } } }, env).lookup('providers.openai.api_key', 'OPENAI_API_KEY', 'dflt'), 'from-file')
  t.equal(view({}, env).lookup('providers.openai.api_key', 'OPENAI_API_KEY', 'dflt'), 'from-env')
  t.equal(view({}, {}).lookup('providers.openai.api_key', 'OPENAI_API_KEY', 'dflt'), 'dflt')
  t.equal(view({}, env).lookup('providers.openai.api_key'), undefined, 'no variable named: the environment is not read')
  t.equal(view({}, env).lookup('providers.openai.api_key', undefined, 'dflt'), 'dflt')
})

t.test('lookup: an empty or null file value and an empty variable fall through; numbers and false are values', async t => {
  const env = { V: 'env' }
  t.equal(view({ a: '' }, env).lookup('a', 'V'), 'env', 'empty string in the file')
  t.equal(view({ a: null }, env).lookup('a', 'V'), 'env', 'null in the file')
  t.equal(view({}, { V: '' }).lookup('a', 'V', 'dflt'), 'dflt', 'empty variable')
  t.equal(view({ a: 0 }, env).lookup('a', 'V'), '0', 'zero is a value, as a string')
  t.equal(view({ a: false }, env).lookup('a', 'V'), 'false')
})

t.test('lookupNumber: a number from any layer, else the default (not NaN)', async t => {
  t.equal(view({ t: 2.5 }).lookupNumber('t', 'T', 9), 2.5)
  t.equal(view({}, { T: '30' }).lookupNumber('t', 'T', 9), 30)
  t.equal(view({}, {}).lookupNumber('t', 'T', 9), 9)
  t.equal(view({}, { T: 'soon' }).lookupNumber('t', 'T', 9), 9, 'not a number: the default')
  t.equal(view({ t: 'Infinity' }).lookupNumber('t', undefined, 9), 9, 'not finite: the default')
  t.equal(view({ t: 0 }).lookupNumber('t', 'T', 9), 0)
})

t.test('the file is a frozen copy: changing the original or the view changes nothing', async t => {
  const file = { a: { b: 1 } }
  const v = view(file)
  file.a.b = 2
  t.equal(v.fromFile('a.b'), 1)
  t.ok(Object.isFrozen(v.file))
  t.equal(v.env.constructor, Object)
  t.equal(v.settings, settings)
})

t.test('loadEnv: .env under the real environment, frozen; no .env is the environment alone', async t => {
  const dir = mkdtempSync(path.join(tmpdir(), 'agentd-env-'))
  t.teardown(() => { rmSync(dir, { recursive: true, force: true }) })
  t.same(loadEnv(dir, { A: '1' }), { A: '1' })
  writeFileSync(path.join(dir, '.env'), 'A=from-file\nB=only-in-file\n')
  const env = loadEnv(dir, { A: 'real' })
  t.same(env, { A: 'real', B: 'only-in-file' }, 'a real variable wins over .env')
  t.ok(Object.isFrozen(env))
})
