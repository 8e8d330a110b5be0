// tool_choice as OpenAI clients send it (structured-output clients rely on it): `required`
// and a named function reach the model on its first call, a model that cannot call tools is
// a 400 naming it, a name not on offer is a 400 naming what is.
import t from 'tap'
import type OpenAI from 'openai'
import { MODEL, startOpenAIApi } from './helpers.ts'

const EXTRACT: OpenAI.ChatCompletionTool = {
  type: 'function',
  function: { name: 'record_person', description: 'Record a person', parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
}
const ask = { model: MODEL, messages: [{ role: 'user' as const, content: 'Dana works at Siemens.' }], tools: [EXTRACT] }

t.test('tool_choice "required" and a named function are sent to the model and its call comes back', async t => {
  const { client, fake } = await startOpenAIApi(t)
  fake.enqueue({ tool_calls: [{ id: 'c1', name: 'record_person', arguments: { name: 'Dana' } }] }, { tool_calls: [{ id: 'c2', name: 'record_person', arguments: { name: 'Dana' } }] })
  const required = await client.chat.completions.create({ ...ask, tool_choice: 'required' })
  t.equal(required.choices[0].finish_reason, 'tool_calls')
  t.same((fake.completions[0].body as { tool_choice?: unknown }).tool_choice, 'required')
  const named = await client.chat.completions.create({ ...ask, tool_choice: { type: 'function', function: { name: 'record_person' } } })
  t.equal(named.choices[0].message.tool_calls?.[0].type === 'function' ? named.choices[0].message.tool_calls[0].function.name : undefined, 'record_person')
  t.same((fake.completions[1].body as { tool_choice?: unknown }).tool_choice, { type: 'function', function: { name: 'record_person' } })
})

t.test('"auto" (or none given) sends no tool_choice: the model decides', async t => {
  const { client, fake } = await startOpenAIApi(t)
  fake.enqueue({ text: 'Noted.' })
  await client.chat.completions.create({ ...ask, tool_choice: 'auto' })
  t.equal((fake.completions[0].body as { tool_choice?: unknown }).tool_choice, undefined)
})

t.test('a model that cannot call tools is a 400 naming it; nothing reaches the model', async t => {
  const { client, fake } = await startOpenAIApi(t, { config: { models: { overrides: { 'gpt-4o-mini': { supports_tools: false } } } } })
  const err = await client.chat.completions.create({ ...ask, tool_choice: 'required' }).then(() => undefined, (e: unknown) => e as { status?: number, message?: string })
  t.equal(err?.status, 400)
  t.match(err?.message, /openai\/gpt-4o-mini does not/)
  t.equal(fake.completions.length, 0)
})

t.test('a named function not on offer is a 400 naming the offered ones', async t => {
  const { client, fake } = await startOpenAIApi(t)
  const err = await client.chat.completions.create({ ...ask, tool_choice: { type: 'function', function: { name: 'no_such_tool' } } }).then(() => undefined, (e: unknown) => e as { status?: number, message?: string })
  t.equal(err?.status, 400)
  t.match(err?.message, /"no_such_tool", which is not on offer; offered: [^.]*record_person/)
  t.equal(fake.completions.length, 0)
})
