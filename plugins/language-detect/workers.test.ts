// Where detection runs, through a real server: worker threads by default (`workers:
// "auto"`), the request thread with `workers: 0`; same answers either way; a crashed
// worker costs one 503 at most; close ends the threads.
import t from 'tap'
import { threadId } from 'node:worker_threads'
import { startKernel, type Started } from '../../test/helpers/kernel.ts'
import { repoPlugin } from '../../test/helpers/workspace.ts'
import { poolSize } from './cld3-pool.ts'
import type { LanguageDetector } from './detector.ts'
import { udhrSnippets } from './udhr-snippets.ts'

const plugin = (options?: Record<string, unknown>): { name: string, module: string, options?: Record<string, unknown> } =>
  ({ name: 'language-detect', module: repoPlugin('language-detect'), ...(options === undefined ? {} : { options }) })
const detector = (s: Started): LanguageDetector => s.kernel.current!.app.registry.detectors.get('language-detect') as LanguageDetector
const workerPorts = (): number => process.getActiveResourcesInfo().filter(r => r === 'MessagePort').length
const FR = 'Tous les êtres humains naissent libres et égaux en dignité et en droits.'

async function detect (s: Started, text: string): Promise<{ status: number, body: Record<string, unknown> }> {
  const res = await s.post('/api/tools/language-detect-20', { text })
  return { status: res.status, body: await res.json() as Record<string, unknown> }
}

t.test('default options: detection runs in worker threads ("auto": 1 to 4 of them)', async t => {
  const s = await startKernel(t, { plugins: [plugin()] })
  t.same(detector(s).status(), { status: 'not_loaded', model: 'cld3' }, 'no worker before the first detection')
  const { status, body } = await detect(s, FR)
  t.same(detector(s).status(), { status: 'healthy', model: 'cld3' }, 'loaded by it')
  t.equal(status, 200)
  t.equal(body.detected_language, 'fr')
  const threads = detector(s).threads()
  t.equal(threads.length, poolSize('auto'), `${threads.length} worker(s) on ${poolSize('auto') + 1}+ cores`)
  t.notOk(threads.includes(threadId), 'not the server\'s thread')
})

t.test('workers: 0 detects in the request thread, with no worker started', async t => {
  const ports = workerPorts()
  const s = await startKernel(t, { plugins: [plugin({ workers: 0 })] })
  t.equal((await detect(s, FR)).body.detected_language, 'fr')
  t.same(detector(s).threads(), [])
  t.equal(workerPorts(), ports, 'no worker thread port opened')
})

t.test('worker threads and the request thread give identical answers', async t => {
  const pooled = await startKernel(t, { plugins: [plugin()] })
  const inThread = await startKernel(t, { plugins: [plugin({ workers: 0 })] })
  const texts = udhrSnippets(40).filter((_s, i) => i % 10 === 0).map(s => s.text)
  for (let i = 0; i < texts.length; i += 8) {
    const group = texts.slice(i, i + 8)
    // Eight at once on the pooled server, so some go to the worker as one batch.
    const [a, b] = await Promise.all([
      Promise.all(group.map(async text => await detect(pooled, text))),
      Promise.all(group.map(async text => await detect(inThread, text))),
    ])
    t.same(a, b, `snippets ${i}-${i + group.length - 1}`)
  }
  t.ok(texts.length >= 100, `${texts.length} snippets compared`)
})

t.test('a crashing worker: that request gets a 503 saying what happened, the next one is answered', async t => {
  const s = await startKernel(t, {
    plugins: [{ name: 'language-detect', module: new URL('./test-fixtures/crashing-detect.ts', import.meta.url).pathname, options: { workers: 1 } }],
  })
  const before = detector(s).threads()
  const crashed = await detect(s, `${FR} CRASH-ALWAYS`)
  t.equal(crashed.status, 503)
  t.match(crashed.body, { code: 'AGENT_ERR_LANGUAGE_MODEL_UNAVAILABLE', error: /cld3 worker thread stopped twice while detecting this text.*Retry the request/ })
  const next = await detect(s, FR)
  t.equal(next.status, 200)
  t.equal(next.body.detected_language, 'fr')
  t.not(detector(s).threads()[0], before[0], 'answered by a replacement thread')
})

t.test('a live reload keeps the worker threads; close ends them', async t => {
  const ports = workerPorts()
  const s = await startKernel(t, { plugins: [plugin({ workers: 2 })] })
  await detect(s, FR)
  const threads = detector(s).threads()
  t.equal(threads.length, 2)
  const outcome = await s.kernel.reload('test')
  t.equal(outcome.ok, true)
  await s.kernel.settled()
  t.same(detector(s).threads(), threads, 'the same threads after the reload')
  t.equal((await detect(s, FR)).status, 200)
  const d = detector(s)
  await s.kernel.close()
  t.same(d.threads(), [], 'no thread after close')
  t.equal(workerPorts(), ports, 'no worker handle left open')
})

t.test('close right after start leaves no thread behind', async t => {
  const ports = workerPorts()
  const s = await startKernel(t, { plugins: [plugin({ workers: 1 })] })
  await s.kernel.close()
  t.equal(workerPorts(), ports, 'no worker handle left open')
})
