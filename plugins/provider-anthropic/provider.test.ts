// The Anthropic provider against a fake Messages API on loopback, through the real
// @anthropic-ai/sdk: what is particular to it (conversions both ways, thinking in all its
// forms, 529, configuration). What every provider must do (streaming, tool calls, errors,
// retries, timeouts, cancellation) is test/providers/provider-contract.ts.
import t from 'tap'
import { ConfigView, readSettings } from '../../core/config.ts'
import type { RuntimeConfig } from '../../core/config-schema.ts'
import { collect, finishOf, reasoningOf, rejection, textOf } from '../../test/helpers/stream.ts'
import { startFakeAnthropic } from '../../test/fakes/anthropic-upstream.ts'
import { capturingLogger } from '../../test/helpers/log.ts'
import { buildProvider } from './index.ts'
import type { AnthropicOptions } from './options.ts'

const KEY = 'sk-ant-test-0123456789abcdef'

function make (url: string | undefined, opts: Partial<AnthropicOptions> = {}, env: Record<string, string> = { ANTHROPIC_API_KEY: KEY }, file: RuntimeConfig = {}) {
  const log = capturingLogger()
  const e = Object.freeze({ ...env })
  const config = new ConfigView(e, readSettings(e, process.cwd()), file)
  const provider = buildProvider(config, {
    instance: 'anthropic', api_key_env: 'ANTHROPIC_API_KEY', timeout: 120, max_retries: 2, default_max_tokens: 4096, thinking_budget_tokens: 0,
    ...(url === undefined ? {} : { base_url: url }), ...opts,
  }, log.logger)
  return { provider, lines: log.raw }
}

const ask = (text: string) => ({ model: 'claude-sonnet-4-5', messages: [{ role: 'system' as const, content: 'Be brief.' }, { role: 'user' as const, content: text }] })

t.test('plain completion: system prompt, tools and max_tokens on the wire; text and usage back', async t => {
  const fake = await startFakeAnthropic(t, { apiKey: KEY })
  fake.enqueue({ text: 'Hi!', usage: { input_tokens: 20, output_tokens: 2 } })
  const { provider } = make(fake.url)
  const r = await provider.complete({ ...ask('hello'), tools: [{ name: 'calc', description: 'adds', input_schema: { type: 'object', properties: { a: { type: 'number' } } } }] })
  t.equal(r.content, 'Hi!')
  t.equal(r.finish_reason, 'stop')
  t.same(r.usage, { prompt_tokens: 20, completion_tokens: 2, total_tokens: 22 })
  const body = fake.messages[0].body
  t.equal(body.system, 'Be brief.')
  t.same(body.messages, [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }])
  t.equal(body.max_tokens, 4096)
  t.same(body.tools, [{ name: 'calc', description: 'adds', input_schema: { type: 'object', properties: { a: { type: 'number' } } } }])
})

t.test('tool_use and thinking blocks come back as tool calls, thinking and its signature', async t => {
  const fake = await startFakeAnthropic(t)
  fake.enqueue({ thinking: 'I should add.', signature: 'sig-123', text: 'Adding.', tool_uses: [{ id: 'toolu_1', name: 'calc', input: { a: 1, b: 2 } }] })
  const { provider } = make(fake.url)
  const r = await provider.complete(ask('1+2?'))
  t.equal(r.finish_reason, 'tool_calls')
  t.same(r.tool_calls, [{ id: 'toolu_1', name: 'calc', arguments: { a: 1, b: 2 } }])
  t.equal(r.thinking, 'I should add.')
  t.equal(r.thinking_signature, 'sig-123')
  t.equal(r.content, 'Adding.')
})

t.test('encrypted reasoning (redacted_thinking) comes back in order, streamed or not, and is replayed verbatim', async t => {
  const fake = await startFakeAnthropic(t)
  const reply = { thinking: 'visible part', signature: 'sig-r', redacted_thinking: ['EnCrYpTeD-1', 'EnCrYpTeD-2'], tool_uses: [{ id: 'toolu_r', name: 'calc', input: { a: 1 } }] }
  fake.enqueue(reply)
  fake.enqueue(reply)
  const { provider } = make(fake.url)
  const r = await provider.complete(ask('q'))
  t.same(r.thinking_redacted, ['EnCrYpTeD-1', 'EnCrYpTeD-2'])
  t.equal(r.thinking_signature, 'sig-r')
  const parts = await collect(provider.stream(ask('q')))
  t.same(parts.flatMap(p => p.type === 'reasoning-redacted' ? [p.data] : []), ['EnCrYpTeD-1', 'EnCrYpTeD-2'], 'streamed: reasoning-redacted parts, in order')
  t.same(parts.flatMap(p => p.type === 'reasoning-signature' ? [p.signature] : []), ['sig-r'])
  await provider.complete({
    model: 'claude-sonnet-4-5',
    messages: [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: '', thinking: 'visible part', thinking_signature: 'sig-r', thinking_redacted: ['EnCrYpTeD-1', 'EnCrYpTeD-2'], tool_calls: [{ id: 'toolu_r', name: 'calc', arguments: { a: 1 } }] },
      { role: 'tool', content: '1', tool_call_id: 'toolu_r' },
    ],
  })
  t.same(fake.messages[2].body.messages[1].content, [
    { type: 'thinking', thinking: 'visible part', signature: 'sig-r' },
    { type: 'redacted_thinking', data: 'EnCrYpTeD-1' },
    { type: 'redacted_thinking', data: 'EnCrYpTeD-2' },
    { type: 'tool_use', id: 'toolu_r', name: 'calc', input: { a: 1 } },
  ])
})

t.test('history goes back as blocks: signed thinking, tool_use, and tool_result turns merged', async t => {
  const fake = await startFakeAnthropic(t)
  const { provider } = make(fake.url)
  await provider.complete({
    model: 'claude-sonnet-4-5',
    messages: [
      { role: 'user', content: 'weather in two cities' },
      { role: 'assistant', content: '', thinking: 'two calls', thinking_signature: 'sig-9', tool_calls: [{ id: 't1', name: 'w', arguments: { c: 'A' } }, { id: 't2', name: 'w', arguments: { c: 'B' } }] },
      { role: 'tool', content: 'sunny', tool_call_id: 't1' },
      { role: 'tool', content: 'rain', tool_call_id: 't2' },
    ],
  })
  const msgs = fake.messages[0].body.messages
  t.equal(msgs.length, 3, 'the two tool results share one user turn')
  t.same(msgs[1].content, [
    { type: 'thinking', thinking: 'two calls', signature: 'sig-9' },
    { type: 'tool_use', id: 't1', name: 'w', input: { c: 'A' } },
    { type: 'tool_use', id: 't2', name: 'w', input: { c: 'B' } },
  ])
  t.same(msgs[2], { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'sunny' }, { type: 'tool_result', tool_use_id: 't2', content: 'rain' }] })
})

t.test('signed and encrypted reasoning goes back only to the model that produced it', async t => {
  const fake = await startFakeAnthropic(t)
  const { provider } = make(fake.url)
  const history = (thinking_model?: string) => [
    { role: 'user' as const, content: 'first' },
    { role: 'assistant' as const, content: 'answer', thinking: 'why', thinking_signature: 'sig-m', thinking_redacted: ['opaque'], ...(thinking_model === undefined ? {} : { thinking_model }) },
    { role: 'user' as const, content: 'second' },
  ]
  await provider.complete({ model: 'claude-opus-5-5', messages: history('claude-opus-5') })
  await provider.complete({ model: 'claude-opus-5', messages: history('claude-opus-5') })
  await provider.complete({ model: 'claude-opus-5-5', messages: history() })
  const replayed = fake.messages.map(m => (m.body.messages[1].content as Array<{ type: string }>).map(b => b.type))
  t.same(replayed[0], ['text'], 'another model gets the answer without the reasoning')
  t.same(replayed[1], ['thinking', 'redacted_thinking', 'text'], 'the same model gets it all back')
  t.same(replayed[2], ['thinking', 'redacted_thinking', 'text'], 'a history from before the model was recorded is replayed as it was')
})

t.test('streaming: reasoning then text deltas; the signature before finish, which has the usage', async t => {
  const fake = await startFakeAnthropic(t)
  fake.enqueue({ thinking: 'pondering deeply', signature: 'sig-s', text: 'The answer is 42.', chunkSize: 3, usage: { input_tokens: 9, output_tokens: 7 } })
  const { provider } = make(fake.url)
  const parts = await collect(provider.stream(ask('q')))
  t.equal(reasoningOf(parts), 'pondering deeply')
  t.equal(textOf(parts), 'The answer is 42.')
  t.ok(parts.findLastIndex(p => p.type === 'reasoning-delta') < parts.findIndex(p => p.type === 'text-delta'), 'reasoning first')
  t.same(parts.at(-2), { type: 'reasoning-signature', signature: 'sig-s' })
  const finish = finishOf(parts)
  t.equal(finish.finish_reason, 'stop')
  t.same(finish.usage, { prompt_tokens: 9, completion_tokens: 7, total_tokens: 16 })
})

t.test('an error event mid-stream ends the stream with a provider error stating it; the text before it was relayed', async t => {
  const fake = await startFakeAnthropic(t)
  fake.enqueue({ text: 'abcdefgh', chunkSize: 4, errorAfter: { events: 5 } })
  const { provider } = make(fake.url)
  const parts: string[] = []
  const err = await rejection((async () => { for await (const p of provider.stream(ask('q'))) if (p.type === 'text-delta') parts.push(p.delta) })())
  t.same(parts, ['abcd', 'efgh'], 'message_start, ping, content_block_start and two deltas came first')
  t.equal(err.code, 'AGENT_ERR_PROVIDER_BAD_RESPONSE')
  t.match(err.message, /overloaded_error/)
  t.match(err.message, /Overloaded/)
})

t.test('529 overloaded is retried after a backoff', async t => {
  const fake = await startFakeAnthropic(t)
  // Retry-After: 0 is no wait asked for: the SDK backs off (0.5 s less up to 25% jitter).
  fake.enqueue({ status: 529, headers: { 'retry-after': '0' } }, { text: 'made it' })
  const { provider, lines } = make(fake.url)
  t.equal(textOf(await collect(provider.stream(ask('hi')))), 'made it')
  t.equal(fake.messages.length, 2, 'two attempts')
  const waited = fake.messages[1].at - fake.messages[0].at
  t.ok(waited >= 370, `the second attempt came ${waited.toFixed(0)} ms after the first`)
  t.ok(lines.some(l => l.includes('retrying') && l.includes('"status":529')), 'the retry is logged')
})

t.test('without a key: not_configured with what to set; calls are 503; health says so', async t => {
  const { provider } = make(undefined, {}, {})
  t.equal(provider.status().status, 'not_configured')
  t.match(provider.status().error, /ANTHROPIC_API_KEY/)
  t.equal((await rejection(provider.complete(ask('hi')))).statusCode, 503)
  t.equal((await provider.health()).status, 'not_configured')
})

t.test('health makes a real models call; the catalogue knows snapshot ids', async t => {
  const fake = await startFakeAnthropic(t, { apiKey: KEY })
  const { provider } = make(fake.url)
  t.equal((await provider.health()).status, 'healthy')
  t.ok(fake.requests.some(r => r.path === '/v1/models'))
  t.equal(provider.knowsModel?.('claude-sonnet-4-20250514'), true)
  t.equal(provider.capabilities('claude-3-5-haiku-latest').max_output_tokens, 8192)
  t.ok((await provider.listModels()).some(m => m.name === 'claude-sonnet-4-5' && m.supports_tools && m.context_window === 200000))
})

t.test('settings the Messages API cannot take are left out and noted once in the log', async t => {
  const fake = await startFakeAnthropic(t)
  const { provider, lines } = make(fake.url)
  await provider.complete({ ...ask('hi'), temperature: 0.3, response_format: { type: 'json_object' } })
  await provider.complete({ ...ask('hi'), temperature: 0.3 })
  t.notOk('temperature' in fake.messages[0].body)
  t.equal(lines.filter(l => l.includes('not supported by the Anthropic Messages API')).length, 1)
})

t.test('thinking_budget_tokens is 0 (off) or at least 1024; budget_tokens under 1024 is never sent', async t => {
  const { Workspace, repoPlugin } = await import('../../test/helpers/workspace.ts')
  const { planPlugins } = await import('../../core/plugin-loader.ts')
  const ws = new Workspace()
  t.teardown(() => { ws.remove() })
  for (const [budget, ok] of [[0, true], [1, false], [1023, false], [1024, true], [4096, true]] as const) {
    ws.writePlugins([{ name: 'anthropic', module: repoPlugin('provider-anthropic'), options: { thinking_budget_tokens: budget } }])
    if (ok) await t.resolves(planPlugins(ws.pluginsFile, '0.0.0'), `${budget} is accepted`)
    else await t.rejects(planPlugins(ws.pluginsFile, '0.0.0'), /thinking_budget_tokens: .*must be >= 1024/, `${budget} is refused with the minimum`)
  }
  const fake = await startFakeAnthropic(t)
  const { provider } = make(fake.url, { thinking_budget_tokens: 1024 })
  await provider.complete({ ...ask('hi'), max_tokens: 300 })
  t.same(fake.messages[0].body.thinking, { type: 'enabled', budget_tokens: 1024 }, 'a small max_tokens does not shrink the budget under 1024')
  t.ok(fake.messages[0].body.max_tokens > 1024, 'max_tokens is raised above the budget')
  const { toParams } = await import('./convert.ts')
  t.same(toParams(ask('hi'), 4096, { budgetTokens: 1 }).thinking, { type: 'enabled', budget_tokens: 1024 }, 'a direct caller with a tiny budget still sends 1024')
  t.same(toParams(ask('hi'), 4096, { budgetTokens: 2048 }).thinking, { type: 'enabled', budget_tokens: 2048 })
  t.equal(toParams(ask('hi'), 4096, { budgetTokens: 0 }).thinking, undefined, '0 leaves thinking off')
})

t.test('the thinking form follows the model: budget up to Claude 4.5, adaptive from 4.6, Fable and Mythos', async t => {
  const { thinkingForm } = await import('./thinking.ts')
  const cases: Array<[string, 'budget' | 'adaptive']> = [
    ['claude-3-7-sonnet-20250219', 'budget'], ['claude-3-5-haiku-latest', 'budget'], ['claude-sonnet-4-20250514', 'budget'],
    ['claude-opus-4-1', 'budget'], ['claude-sonnet-4-5', 'budget'], ['claude-haiku-4-5-20251001', 'budget'], ['claude-opus-4-5-20251101', 'budget'],
    ['claude-opus-4-6', 'adaptive'], ['claude-sonnet-4-6', 'adaptive'], ['claude-opus-4-7', 'adaptive'], ['claude-opus-5', 'adaptive'],
    ['claude-sonnet-5-5', 'adaptive'], ['claude-haiku-5-5', 'adaptive'], ['claude-fable-5-1', 'adaptive'], ['claude-mythos-preview', 'adaptive'],
    ['anthropic/claude-opus-5-5', 'adaptive'], ['us.anthropic.claude-opus-4-6-v1', 'adaptive'], ['my-company-deployment', 'budget'],
  ]
  for (const [model, form] of cases) t.equal(thinkingForm(model), form, model)
})

t.test('with thinking on, a Claude 4.6+ model gets adaptive thinking and the effort; the API takes it where it refuses a budget', async t => {
  const fake = await startFakeAnthropic(t)
  fake.enqueue({ thinking: 'short', signature: 's', text: 'ok' })
  const { provider } = make(fake.url, { thinking_budget_tokens: 2048, thinking_effort: 'low' })
  const r = await provider.complete({ ...ask('hi'), model: 'claude-opus-5-5', max_tokens: 300 })
  t.equal(r.content, 'ok')
  const body = fake.messages[0].body
  t.same(body.thinking, { type: 'adaptive' })
  t.same(body.output_config, { effort: 'low' })
  t.equal(body.max_tokens, 300, 'no budget to fit under max_tokens')
})

t.test('the same instance sends a budget to Claude 4.5 and no effort', async t => {
  const fake = await startFakeAnthropic(t)
  const { provider } = make(fake.url, { thinking_budget_tokens: 2048, thinking_effort: 'low' })
  await provider.complete({ ...ask('hi'), model: 'claude-haiku-4-5' })
  const body = fake.messages[0].body
  t.same(body.thinking, { type: 'enabled', budget_tokens: 2048 })
  t.notOk('output_config' in body)
})

t.test('thinking off sends no thinking parameter, also to a model whose thinking is always on', async t => {
  const fake = await startFakeAnthropic(t)
  const { provider } = make(fake.url, { thinking_effort: 'high' })
  await provider.complete({ ...ask('hi'), model: 'claude-fable-5-1' })
  t.notOk('thinking' in fake.messages[0].body)
  t.notOk('output_config' in fake.messages[0].body)
})

t.test('thinking_effort takes only the API\'s effort levels', async t => {
  const { Workspace, repoPlugin } = await import('../../test/helpers/workspace.ts')
  const { planPlugins } = await import('../../core/plugin-loader.ts')
  const ws = new Workspace()
  t.teardown(() => { ws.remove() })
  ws.writePlugins([{ name: 'anthropic', module: repoPlugin('provider-anthropic'), options: { thinking_effort: 'max' } }])
  await t.resolves(planPlugins(ws.pluginsFile, '0.0.0'))
  ws.writePlugins([{ name: 'anthropic', module: repoPlugin('provider-anthropic'), options: { thinking_effort: 'extreme' } }])
  await t.rejects(planPlugins(ws.pluginsFile, '0.0.0'), /thinking_effort/)
})

t.test('a user message\'s images become image blocks before its text: a data URL as base64, another URL as a URL', async t => {
  const { toParams } = await import('./convert.ts')
  const p = toParams({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'What is this?', images: [{ url: 'data:image/png;base64,AAAA' }, { url: 'https://example.org/cat.jpg' }] }] }, 1024, { budgetTokens: 0 })
  t.same(p.messages[0].content, [
    { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
    { type: 'image', source: { type: 'url', url: 'https://example.org/cat.jpg' } },
    { type: 'text', text: 'What is this?' },
  ])
})
