// GET/POST /api/tools/language-detect-20 through a real server.
import t from 'tap'
import { startKernel } from '../../test/helpers/kernel.ts'
import { repoPlugin } from '../../test/helpers/workspace.ts'
import { control } from './test-fixtures/injected-detect.ts'
import { refusedHub } from '../../test/fakes/hf-hubs.ts'
import path from 'node:path'

const plugins = [{ name: 'language-detect', module: repoPlugin('language-detect') }]
/** One server for the tests on the default options (read-only requests; the live reload last of them). */
const shared = await startKernel(t, { plugins })

t.test('POST answers the merged shape with a percent confidence', async t => {
  const s = shared
  const res = await s.post('/api/tools/language-detect-20', { text: 'Tous les êtres humains naissent libres et égaux en dignité et en droits.' })
  t.equal(res.status, 200)
  const body = await res.json() as Record<string, unknown>
  t.match(body, { status: 'success', original: 'Tous les êtres humains naissent libres et égaux en dignité et en droits.', detected_language: 'fr', language: 'fr', language_name: 'French' })
  const c = body.confidence as number
  t.ok(c > 90 && c <= 100, `confidence ${c} is a percent`)
  t.equal(Math.round(c * 100) / 100, c, 'two decimals')
})

t.test('GET ?text= answers the same', async t => {
  const s = shared
  const { status, body } = await s.json(`/api/tools/language-detect-20?text=${encodeURIComponent('Всеки човек има право на живот, свобода и лична сигурност.')}`)
  t.equal(status, 200)
  t.equal(body.detected_language, 'bg')
  t.equal(body.language_name, 'Bulgarian')
})

t.test('empty, missing and blank text -> 400', async t => {
  const s = shared
  for (const body of [{ text: '' }, {}, { text: '   \n' }]) {
    const res = await s.post('/api/tools/language-detect-20', body)
    t.equal(res.status, 400, JSON.stringify(body))
    t.match(await res.json(), { code: 'AGENT_ERR_LANGUAGE_NO_TEXT', statusCode: 400, error: /text/ })
  }
  const get = await s.json('/api/tools/language-detect-20')
  t.equal(get.status, 400)
})

t.test('text over AGENT_MAX_TEXT_LENGTH -> 413 naming the limit', async t => {
  const s = await startKernel(t, { plugins, env: { AGENT_MAX_TEXT_LENGTH: '50' } })
  const res = await s.post('/api/tools/language-detect-20', { text: 'a'.repeat(51) })
  t.equal(res.status, 413)
  t.match(await res.json(), { code: 'AGENT_ERR_LANGUAGE_TEXT_TOO_LONG', error: /51 characters; the limit is 50 \(AGENT_MAX_TEXT_LENGTH\)/ })
  t.equal((await s.post('/api/tools/language-detect-20', { text: 'Guten Morgen, wie geht es dir heute?' })).status, 200, 'under the limit is fine')
})

t.test('text without letters -> 400, wrong type -> 400', async t => {
  const s = shared
  const res = await s.post('/api/tools/language-detect-20', { text: '42 + 17 = 59' })
  t.equal(res.status, 400)
  t.match(await res.json(), { code: 'AGENT_ERR_LANGUAGE_NO_LETTERS' })
  const bad = await s.post('/api/tools/language-detect-20', { text: 42 })
  t.equal(bad.status, 400)
})

t.test('the detector is registered and the backend survives a live reload', async t => {
  const s = shared
  await s.post('/api/tools/language-detect-20', { text: 'hello there, how are you doing today?' })
  const before = s.kernel.pool.list().filter(r => r.kind === 'language-detection-model')
  t.equal(before.length, 1)
  const outcome = await s.kernel.reload('test')
  t.equal(outcome.ok, true)
  await s.kernel.settled()
  const after = s.kernel.pool.list().filter(r => r.kind === 'language-detection-model')
  t.same(after.map(r => r.key), before.map(r => r.key), 'same pooled instance after the reload')
  const res = await s.post('/api/tools/language-detect-20', { text: 'hello there, how are you doing today?' })
  t.equal(res.status, 200)
})

t.test('classifier backend: loads on first use only, failure -> 503 naming the model, then retried', async t => {
  const c = control()
  c.loads = 0
  c.failWith = 'fetch failed'
  const s = await startKernel(t, {
    plugins: [{ name: 'language-detect', module: new URL('./test-fixtures/injected-detect.ts', import.meta.url).pathname, options: { backend: 'classifier', classifier_model: 'org/lang-20' } }],
  })
  t.equal(c.loads, 0, 'nothing loaded at start')
  const res = await s.post('/api/tools/language-detect-20', { text: 'Bonjour tout le monde' })
  t.equal(res.status, 503)
  const body = await res.json() as { code: string, error: string }
  t.equal(body.code, 'AGENT_ERR_LANGUAGE_MODEL_UNAVAILABLE')
  t.match(body.error, /org\/lang-20 could not be loaded \(fetch failed\).*LANGUAGE_DETECT_MODEL_DIR/)
  c.failWith = undefined
  c.label = 'fr'
  const ok = await s.post('/api/tools/language-detect-20', { text: 'Bonjour tout le monde' })
  t.equal(ok.status, 200)
  t.match(await ok.json(), { detected_language: 'fr' })
  t.equal(c.loads, 2, 'retried once after the failure')
})

t.test('classifier backend: hub_timeout_seconds and a relative LANGUAGE_DETECT_MODEL_DIR reach the loader', async t => {
  const c = control()
  c.sources = []
  c.failWith = undefined
  const s = await startKernel(t, {
    plugins: [{ name: 'language-detect', module: new URL('./test-fixtures/injected-detect.ts', import.meta.url).pathname, options: { backend: 'classifier', hub_timeout_seconds: 3 } }],
    env: { LANGUAGE_DETECT_MODEL_DIR: 'models/lang-20' },
  })
  t.equal((await s.post('/api/tools/language-detect-20', { text: 'Bonjour tout le monde' })).status, 200)
  t.match(c.sources.at(-1), { connectTimeoutMs: 3000, dir: path.join(s.ws.dir, 'models', 'lang-20') }, 'the folder is under the server\'s working directory')
})

t.test('classifier backend with the real loader and no hub: 503 within seconds naming the model', async t => {
  // A refused loopback port as the hub: never the real one, which would start a download.
  const s = await startKernel(t, {
    plugins: [{ name: 'language-detect', module: repoPlugin('language-detect'), options: { backend: 'classifier' } }],
    env: { HF_ENDPOINT: await refusedHub() },
  })
  // No time bound (docs/testing.md): a loader that hung on the refused hub would never
  // answer, and the file's timeout would fail it; an answer at all proves it gave up.
  const res = await s.post('/api/tools/language-detect-20', { text: 'Bonjour tout le monde' })
  t.equal(res.status, 503)
  t.match(await res.json(), { code: 'AGENT_ERR_LANGUAGE_MODEL_UNAVAILABLE', error: /onnx-community\/xlm-roberta-base-language-detection-ONNX could not be loaded .*LANGUAGE_DETECT_MODEL_DIR.*backend: "cld3"/ })
})

t.test('workers: cld3 in worker threads gives the same answers, also under concurrency', async t => {
  const s = await startKernel(t, { plugins: [{ name: 'language-detect', module: repoPlugin('language-detect'), options: { workers: 2 } }] })
  const texts: Array<[string, string]> = [
    ['Tous les êtres humains naissent libres et égaux en dignité et en droits.', 'fr'],
    ['Всеки човек има право на живот, свобода и лична сигурност.', 'bg'],
    ['人人生而自由,在尊严和权利上一律平等。', 'zh'],
    ['Kila mtu anayo haki ya kuishi, haki ya uhuru na usalama wa nafsi yake.', 'sw'],
  ]
  const answers = await Promise.all(Array.from({ length: 40 }, async (_v, i) => {
    const [text, want] = texts[i % texts.length]
    const res = await s.post('/api/tools/language-detect-20', { text })
    return { status: res.status, got: (await res.json() as { detected_language: string }).detected_language, want }
  }))
  t.ok(answers.every(a => a.status === 200 && a.got === a.want), JSON.stringify(answers.filter(a => a.got !== a.want)))
})
