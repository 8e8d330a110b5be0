// Translation with the language-detect plugin beside it (both with their models
// replaced by test fixtures): what a detection failure or a detection model still loading
// means for translate requests and for the translation section of /api/health.
import t from 'tap'
import { startKernel, type Started } from '../helpers/kernel.ts'
import { pollUntil } from '../helpers/poll.ts'
import { control } from '../../plugins/translation/test-fixtures/injected-translation.ts'

const FIXTURE = new URL('../../plugins/translation/test-fixtures/injected-translation.ts', import.meta.url).pathname
const DETECT = new URL('../../plugins/language-detect/test-fixtures/injected-detect.ts', import.meta.url).pathname

async function translate (s: Started, body: Record<string, unknown>): Promise<{ status: number, body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies
  const r = await s.post('/api/tools/translate', body)
  return { status: r.status, body: await r.json() }
}

t.test('source detection unavailable: 503 that suggests sending sourceLanguage, not a 500', async t => {
  const { control: detectControl } = await import('../../plugins/language-detect/test-fixtures/injected-detect.ts')
  detectControl().failWith = 'fetch failed'
  t.teardown(() => { detectControl().failWith = undefined })
  control().reset()
  const s = await startKernel(t, {
    plugins: [
      { name: 'language-detect', module: DETECT, options: { backend: 'classifier' } },
      { name: 'translation', module: FIXTURE },
    ],
  })
  const r = await translate(s, { text: 'Bonjour tout le monde.', targetLanguage: 'eng_Latn' })
  t.equal(r.status, 503)
  t.equal(r.body.code, 'AGENT_ERR_TRANSLATION_UNAVAILABLE')
  t.match(r.body.error, /language detection model .* could not be loaded.*send "sourceLanguage"/)
  const given = await translate(s, { text: 'Bonjour tout le monde.', targetLanguage: 'eng_Latn', sourceLanguage: 'fra_Latn' })
  t.equal(given.status, 200, 'with the source given, translation works')
})

t.test('health shows the detection model loading with its percent (classifier backend)', async t => {
  const { control: detectControl } = await import('../../plugins/language-detect/test-fixtures/injected-detect.ts')
  let open!: () => void
  detectControl().failWith = undefined
  detectControl().gate = new Promise(resolve => { open = resolve })
  t.teardown(() => { detectControl().gate = undefined })
  control().reset()
  const s = await startKernel(t, {
    plugins: [
      { name: 'language-detect', module: DETECT, options: { backend: 'classifier', classifier_model: 'org/lang-20' } },
      { name: 'translation', module: FIXTURE },
    ],
  })
  t.match((await s.json('/api/health')).body.translation.detection, { status: 'not_loaded', model: 'org/lang-20' })
  const detection = s.post('/api/tools/language-detect-20', { text: 'Bonjour tout le monde' })
  const loading = await pollUntil(async () => (await s.json('/api/health')).body.translation, h => h.status === 'loading')
  t.match(loading, { status: 'loading', models: { language_detection: 'loading', translation: 'not_loaded' } })
  t.same(loading.detection, { status: 'loading', model: 'org/lang-20', progress: 50 })
  t.notOk('progress' in loading, 'the top-level progress stays the translation model\'s')
  open()
  t.equal((await detection).status, 200)
  t.same((await s.json('/api/health')).body.translation.detection, { status: 'healthy', model: 'org/lang-20' })
})
