// The chat-model backend through a real server: the provider plugin talks to a fake
// OpenAI-compatible upstream on loopback, through the real `openai` SDK.
import t from 'tap'
import { startKernel, type Started } from '../../test/helpers/kernel.ts'
import path from 'node:path'
import { REPO, repoPlugin, type PluginSpec } from '../../test/helpers/workspace.ts'
import { startFakeOpenAI, type FakeOpenAI } from '../../test/fakes/openai-upstream.ts'

const HOOKS = path.join(REPO, 'test', 'chat', 'fixtures', 'test-hooks')

async function start (t: Parameters<typeof startKernel>[0], fake: FakeOpenAI | undefined, options: Record<string, unknown> = {}, extra: PluginSpec[] = []): Promise<Started> {
  return await startKernel(t, {
    plugins: [
      ...extra,
      ...(fake === undefined ? [] : [{ name: 'upstream', module: repoPlugin('provider-openai-compatible'), options: { base_url: fake.url, key_required: false, max_retries: 0 } }]),
      { name: 'providers-api', module: repoPlugin('providers-api') },
      { name: 'language-detect', module: repoPlugin('language-detect') },
      { name: 'translation', module: repoPlugin('translation'), options: { backend: 'chat', chat_model: 'upstream/translator-1', ...options } },
    ],
  })
}

t.test('the chat model translates; the prompt names both languages; thinking is dropped', async t => {
  const fake = await startFakeOpenAI(t)
  fake.enqueue({ text: '<think>plain greeting</think>Bonjour à tous.' })
  const s = await start(t, fake)
  const res = await s.post('/api/tools/translate', { text: 'Hello everyone.', targetLanguage: 'fra_Latn', sourceLanguage: 'eng_Latn' })
  t.equal(res.status, 200)
  t.match(await res.json(), { translatedText: 'Bonjour à tous.', source_language: 'eng_Latn', target_language: 'fra_Latn' })
  const sent = fake.completions[0].body
  t.equal(sent.model, 'translator-1')
  t.equal(sent.temperature, 0)
  t.match(sent.messages[0], { role: 'system', content: /from English \(eng_Latn\) to French \(fra_Latn\)/ })
  t.same(sent.messages[1], { role: 'user', content: 'Hello everyone.' })
})

t.test('translation calls run the provider hooks, as chat and agent calls do', async t => {
  const { hookJournal } = await import('../../test/chat/fixtures/test-hooks/index.ts')
  hookJournal().length = 0
  const fake = await startFakeOpenAI(t)
  fake.enqueue({ text: 'Hallo.' })
  const s = await start(t, fake, {}, [{ name: 'test-hooks', module: HOOKS }])
  const res = await s.post('/api/tools/translate', { text: 'Hello.', targetLanguage: 'deu_Latn', sourceLanguage: 'eng_Latn' })
  t.equal(res.status, 200)
  t.same(hookJournal(), ['before upstream translator-1', 'after upstream'])
})

t.test('backend chat without providers-api is refused when the plugins load, naming what to add', async t => {
  const s = await startKernel(t, { plugins: [{ name: 'translation', module: repoPlugin('translation'), options: { backend: 'chat' } }] })
  const { body } = await s.json('/api/plugins')
  t.match(body.last_reload.error, /backend "chat".*add \{ "name": "providers-api"/)
})

t.test('long text goes to the chat model in sentence-bounded pieces, joined back', async t => {
  const fake = await startFakeOpenAI(t, { fallback: (req) => ({ text: `[${String(req.body.messages[1].content).length}]` }) })
  const s = await start(t, fake, { chat_max_chunk_chars: 100 })
  const sentence = 'Each of these sentences is forty characters.'.slice(0, 39) + '. '
  t.equal(sentence.length, 41)
  const text = sentence.repeat(5).trim()
  const res = await s.post('/api/tools/translate', { text, targetLanguage: 'deu_Latn', sourceLanguage: 'eng_Latn' })
  t.equal(res.status, 200)
  t.equal(fake.completions.length, 3)
  for (const c of fake.completions) t.ok(String(c.body.messages[1].content).length <= 100)
  t.equal((await res.json() as { translatedText: string }).translatedText, '[81] [81] [40]', 'two sentences per piece, the last alone')
})

t.test('health reports the chat backend healthy when its provider is configured', async t => {
  const fake = await startFakeOpenAI(t)
  const s = await start(t, fake)
  const { body } = await s.json('/api/health')
  t.match(body.translation, { status: 'healthy', backend: 'chat', model: 'upstream/translator-1', models: { language_detection: 'not_loaded', translation: 'healthy' } })
})

t.test('no provider loaded: 503 that says how to enable the chat backend', async t => {
  const s = await start(t, undefined)
  const res = await s.post('/api/tools/translate', { text: 'Hello everyone.', targetLanguage: 'fra_Latn', sourceLanguage: 'eng_Latn' })
  t.equal(res.status, 503)
  t.match(await res.json(), { code: 'AGENT_ERR_TRANSLATION_UNAVAILABLE', error: /no model to use.*chat_model/ })
  t.equal((await s.json('/api/health')).body.translation.status, 'error')
})

t.test('an upstream error passes through as the provider error, not a 500', async t => {
  const fake = await startFakeOpenAI(t)
  fake.enqueue({ status: 500, message: 'model crashed' })
  const s = await start(t, fake)
  const res = await s.post('/api/tools/translate', { text: 'Hello everyone.', targetLanguage: 'fra_Latn', sourceLanguage: 'eng_Latn' })
  t.equal(res.status, 502)
  t.match(await res.json(), { statusCode: 502, code: 'AGENT_ERR_PROVIDER_UPSTREAM', error: /upstream/ }, 'the provider\'s error, naming where it failed')
  t.equal(fake.completions.length, 1, 'one call (the provider here retries nothing)')
})
