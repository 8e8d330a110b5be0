// The local catalogue's context windows are model maxima (llama3.2: 131072), far more than
// an Ollama serves by default. A `models.overrides["local/<model>"].context_window` set to
// the server's num_ctx must be what chat trims history to, tags included (llama3.2:3b).
import t, { type Test } from 'tap'
import { startKernel } from '../../test/helpers/kernel.ts'
import { repoPlugin } from '../../test/helpers/workspace.ts'
import { startFakeOpenAI } from '../../test/fakes/openai-upstream.ts'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

async function conversation (t: Test, config: unknown): Promise<[Json, Json[]]> {
  const fake = await startFakeOpenAI(t, { models: ['llama3.2:3b'], fallback: () => ({ text: 'answer ' + 'y'.repeat(400) }) })
  const s = await startKernel(t, {
    plugins: [
      { name: 'local', module: repoPlugin('provider-openai-compatible') },
      { name: 'providers-api', module: repoPlugin('providers-api') },
      { name: 'prompts', module: repoPlugin('prompts') },
      { name: 'chat', module: repoPlugin('chat') },
    ],
    env: { LOCAL_MODEL_URL: fake.url },
    config,
  })
  let sid: string | undefined
  for (let i = 0; i <= 6; i++) {
    const res = await s.post('/api/agent/chat', { message: `turn-${i} ` + 'x'.repeat(400), model: 'local/llama3.2:3b', use_memory: false, ...(sid === undefined ? {} : { session_id: sid }) })
    t.equal(res.status, 200)
    sid = (await res.json() as Json).session_id
  }
  const listed = (await s.json('/api/providers/models?provider=local')).body.models as Json[]
  return [listed[0], fake.completions.at(-1)!.body.messages as Json[]]
}

t.test('chat trims a local model\'s history to the models.overrides window, not the catalogue maximum', async t => {
  const [info, sent] = await conversation(t, { models: { overrides: { 'local/llama3.2': { context_window: 1000, max_output_tokens: 250 } } } })
  t.equal(info.context_window, 1000, 'the listing shows the override for the tagged model')
  t.notOk(sent.some(m => /^turn-0 /.test(m.content ?? '')), 'the oldest turn was dropped')
  t.match(sent.at(-1)!.content, /^turn-6 /)
  const chars = sent.reduce((n, m) => n + String(m.content ?? '').length, 0)
  t.ok(chars / 4 < 1000, `the prompt fits the 1000-token window (${chars} chars)`)
})

t.test('without an override the catalogue maximum applies and nothing is trimmed', async t => {
  const [info, sent] = await conversation(t, {})
  t.equal(info.context_window, 131072)
  t.ok(sent.some(m => /^turn-0 /.test(m.content ?? '')), 'the whole history is sent')
})
