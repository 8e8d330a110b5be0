// A recall technique brings its own settings: a plugin written in a temporary folder (no
// change to the SDK or the memory plugin) declares two keys, and
// /api/memory/recall-settings serves them beside the shipped ones, validates them, keeps
// them live and the technique reads them; without the plugin the keys are not there.
import t from 'tap'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { REPO, repoPlugin } from '../helpers/workspace.ts'
import { postJson, startMemoryKernel } from './memory-kernel.ts'
import { RECALL_SETTING_KEYS } from '../helpers/recall-settings.ts'

// Under the repository (git-ignored test-results/), so the plugin resolves @agentd/sdk as an installed plugin would.
const root = path.join(REPO, 'test-results')
mkdirSync(root, { recursive: true })
const dir = mkdtempSync(path.join(root, 'technique-plugin-'))
t.teardown(() => { rmSync(dir, { recursive: true, force: true }) })
writeFileSync(path.join(dir, 'index.ts'), `
import fp from 'fastify-plugin'
import { Type } from '@agentd/sdk/typebox'
import { RecallSetting, settingsOf } from '@agentd/sdk/kits/recall'

const Settings = Type.Object({
  recall_enable_echo_words: RecallSetting.enable(true, 'answers the query\\'s words back as a turn (a test technique)'),
  recall_echo_words_repeat: Type.Integer({ minimum: 1, maximum: 5, default: 2, description: 'how many times the words are repeated' }),
}, { additionalProperties: false })

export default fp(async (app) => {
  app.registry.recallTechniques.add('echo_words', {
    name: 'echo_words',
    settings: Settings,
    run: async (input) => {
      const s = settingsOf(Settings, input.settings)
      return { relevant_turns: [{ id: 'echo', role: 'assistant', content: Array(s.recall_echo_words_repeat).fill(input.query).join(' | '), timestamp: new Date(0).toISOString() }] }
    },
  })
}, { name: 'recall-echo-words', fastify: '5.x' })
`)
const technique = { name: 'recall-echo-words', module: path.join(dir, 'index.ts') }
const shipped = ['recall-hybrid', 'recall-entity'].map(name => ({ name, module: repoPlugin(name) }))

const echoed = async (s: Awaited<ReturnType<typeof startMemoryKernel>>): Promise<{ techniques: string[], content: string | undefined }> => {
  const r = await postJson(s, '/api/memory/recall', { query: 'tea' })
  return { techniques: r.body.techniques, content: (r.body.relevant_turns as Array<{ id: string, content: string }>).find(x => x.id === 'echo')?.content }
}

t.test('its keys are served beside the loaded ones, with defaults and meanings, and act', async t => {
  const s = await startMemoryKernel(t, { extra: [...shipped, technique] })
  const got = await s.json('/api/memory/recall-settings')
  t.equal(got.body.recall_echo_words_repeat, 2)
  t.equal(got.body.recall_enable_echo_words, true)
  t.equal(got.body._meta.defaults.recall_echo_words_repeat, 2)
  t.match(got.body._meta.descriptions.recall_echo_words_repeat, /repeated/)
  t.equal(got.body.recall_enable_hybrid, true, 'the shipped technique\'s keys too')
  t.notOk('recall_enable_hyde' in got.body, 'a technique not loaded brings no keys')
  const doc = (await s.json('/docs/json')).body
  const documented = Object.keys(doc.paths['/api/memory/recall-settings'].get.responses['200'].content['application/json'].schema.properties ?? {})
  for (const key of ['recall_echo_words_repeat', 'recall_enable_hybrid', 'recall_hybrid_rrf_k', '_meta']) t.ok(documented.includes(key), `the OpenAPI document names ${key}`)
  t.equal((await echoed(s)).content, 'tea | tea')
  t.equal((await postJson(s, '/api/memory/recall-settings', { recall_echo_words_repeat: 3 })).status, 200)
  t.equal((await echoed(s)).content, 'tea | tea | tea', 'in force for the next recall')
  const bad = await postJson(s, '/api/memory/recall-settings', { recall_echo_words_repeat: 9 })
  t.equal(bad.status, 400, 'validated by its own schema')
  t.match(bad.body.error, /recall_echo_words_repeat/)
  t.equal((await postJson(s, '/api/memory/recall-settings', { recall_enable_echo_words: false })).status, 200)
  t.notOk((await echoed(s)).techniques.includes('echo_words'), 'its enable key turns it off')
})

t.test('without the plugin its keys are unknown (400 listing the allowed ones), the shipped keys unchanged', async t => {
  const s = await startMemoryKernel(t, { extra: shipped })
  const got = await s.json('/api/memory/recall-settings')
  t.notOk('recall_echo_words_repeat' in got.body)
  for (const key of ['recall_enable_hybrid', 'recall_enable_entity_centric', 'recall_entity_graph_depth', 'recall_hybrid_rrf_k']) t.ok(key in got.body, key)
  t.ok(RECALL_SETTING_KEYS.includes('recall_entity_graph_depth'))
  const r = await postJson(s, '/api/memory/recall-settings', { recall_echo_words_repeat: 3 })
  t.equal(r.status, 400)
  t.match(r.body.error, /Unknown setting\(s\): recall_echo_words_repeat/)
})
