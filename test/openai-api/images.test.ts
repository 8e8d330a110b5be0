// Image content parts on /v1, sent with the official `openai` SDK: to a model whose
// capabilities say it reads images they reach the upstream as OpenAI image parts beside the
// text; to one that does not, a 400 names the model before anything is sent. One server.
import t from 'tap'
import { startOpenAIApi, MODEL } from './helpers.ts'

const PIXEL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='
const { client, fake } = await startOpenAIApi(t, { config: { models: { overrides: { 'text-only': { supports_vision: false } } } } })

const ask = (model: string): Parameters<typeof client.chat.completions.create>[0] => ({
  model,
  messages: [{ role: 'user', content: [{ type: 'text', text: 'What is in this picture?' }, { type: 'image_url', image_url: { url: PIXEL, detail: 'low' } }] }],
})

t.test('an image part reaches a vision model upstream as an image part after the text', async t => {
  fake.enqueue({ text: 'A single pixel.' })
  const r = await client.chat.completions.create({ ...ask(MODEL), stream: false })
  t.equal(r.choices[0].message.content, 'A single pixel.')
  const sent = fake.completions.at(-1)?.body as { messages: Array<{ role: string, content: unknown }> }
  t.same(sent.messages.at(-1), { role: 'user', content: [{ type: 'text', text: 'What is in this picture?' }, { type: 'image_url', image_url: { url: PIXEL, detail: 'low' } }] })
})

t.test('an image part for a model that does not read images is a 400 naming the model; nothing is sent', async t => {
  const before = fake.completions.length
  const err = await client.chat.completions.create({ ...ask('openai/text-only'), stream: false }).then(() => undefined, (e: unknown) => e as { status?: number, message?: string })
  t.equal(err?.status, 400)
  t.match(err?.message, /openai\/text-only does not read images/)
  t.equal(fake.completions.length, before)
})

t.test('an image part on a system message is a 400 naming the part', async t => {
  const err = await client.chat.completions.create({
    model: MODEL,
    messages: [{ role: 'system', content: [{ type: 'image_url', image_url: { url: PIXEL } }] as never }, { role: 'user', content: 'Hi' }],
  }).then(() => undefined, (e: unknown) => e as { status?: number, message?: string })
  t.equal(err?.status, 400)
  t.match(err?.message, /messages\.0\.content\.0: only text parts are supported on this role/)
})
