// The LLM extractor through the real OpenAI-compatible provider plugin against the fake
// upstream: valid extraction JSON, malformed JSON (one retry, then the offline extractor,
// reported), JSON of the wrong shape, a model that never answers, and `auto` giving up on
// a dead model for the rest of a run.
import t, { type Test } from 'tap'
import type { Provider } from '@agentd/sdk/contracts/provider'
import { startKernel } from '../../test/helpers/kernel.ts'
import { repoPlugin } from '../../test/helpers/workspace.ts'
import { startFakeOpenAI, type FakeOpenAI } from '../../test/fakes/openai-upstream.ts'
import { LlmExtractor, jsonIn } from './llm-extractor.ts'
import { OfflineExtractor } from './offline-extractor.ts'
import { ExtractionRun } from './choose.ts'
import type { Extraction } from './extraction.ts'

const GOOD: Extraction = {
  entities: [{ name: 'Acme', type: 'Organization', aliases: [], description: null }],
  facts: [{ subject: 'User', predicate: 'works_at', object: 'Acme', claim: 'The user works at Acme.', confidence: 0.9, temporal_context: 'current', turn: 0, entities: ['User', 'Acme'] }],
  relationships: [],
}
const TURNS = [{ id: 'turn-1', content: 'I work at Acme and I live in Oslo.' }]

// gpt-4o-mini has JSON mode in the provider's catalogue.
async function setup (t: Test): Promise<{ fake: FakeOpenAI, provider: Provider }> {
  const fake = await startFakeOpenAI(t)
  const s = await startKernel(t, {
    plugins: [{ name: 'openai', module: repoPlugin('provider-openai-compatible'), options: { base_url: fake.url, max_retries: 0 } }],
    env: { OPENAI_API_KEY: 'test-key' },
  })
  const provider = s.kernel.current?.app.registry.providers.find('openai')
  if (provider === undefined) throw new Error('provider not loaded')
  return { fake, provider }
}

const extractor = (provider: Provider, timeoutMs = 10_000, model = 'gpt-4o-mini'): LlmExtractor =>
  new LlmExtractor({ model: () => ({ provider, model, id: `openai/${model}` }), timeoutMs: () => timeoutMs, prompt: () => 'Extract memory.' })

t.test('valid JSON: the model\'s extraction is used, asked with a JSON Schema response format', async t => {
  const { fake, provider } = await setup(t)
  fake.enqueue({ text: JSON.stringify(GOOD) })
  const run = new ExtractionRun('llm', extractor(provider), new OfflineExtractor())
  const out = await run.extract(TURNS)
  t.equal(out.extractor, 'llm')
  t.equal(out.fallback_reason, undefined)
  t.same(out.extraction.facts.map(f => f.claim), ['The user works at Acme.'])
  t.equal(fake.completions.length, 1)
  const body = fake.completions[0].body
  t.equal(body.response_format?.type, 'json_schema', 'structured output where the model has JSON mode')
  t.ok(body.response_format.json_schema.schema.properties.facts, 'the extraction schema is sent')
  t.equal(body.temperature, 0)
  t.match(body.messages[1].content, /\[0\] I work at Acme/)
})

t.test('without JSON mode the schema goes in the prompt, and fenced JSON is accepted', async t => {
  const { fake, provider } = await setup(t)
  fake.enqueue({ text: `Here you go:\n\`\`\`json\n${JSON.stringify(GOOD)}\n\`\`\`` })
  // A model the catalogue does not know: no JSON mode assumed.
  const out = await new ExtractionRun('auto', extractor(provider, 10_000, 'house-model-7b'), new OfflineExtractor()).extract(TURNS)
  t.equal(out.extractor, 'llm')
  const body = fake.completions[0].body
  t.equal(body.response_format, undefined)
  t.match(body.messages[0].content, /JSON Schema of the answer/)
})

t.test('malformed JSON: one retry that says what was wrong, then it is used', async t => {
  const { fake, provider } = await setup(t)
  fake.enqueue({ text: '{"entities": [' }, { text: JSON.stringify(GOOD) })
  const out = await new ExtractionRun('llm', extractor(provider), new OfflineExtractor()).extract(TURNS)
  t.equal(out.extractor, 'llm')
  t.equal(fake.completions.length, 2)
  t.match(fake.completions[1].body.messages.at(-1).content, /not JSON/)
})

t.test('malformed JSON twice: the offline extractor runs and the reason is reported', async t => {
  const { fake, provider } = await setup(t)
  fake.enqueue({ text: 'sorry, I cannot do that' }, { text: '{"facts": "nope"' })
  const out = await new ExtractionRun('llm', extractor(provider), new OfflineExtractor()).extract(TURNS)
  t.equal(out.extractor, 'offline')
  t.match(out.fallback_reason, /unusable output twice/)
  t.equal(fake.completions.length, 2, 'exactly one retry')
  t.ok(out.extraction.facts.some(f => f.predicate === 'lives_in' && f.object === 'Oslo'), 'the offline result is what comes back')
})

t.test('JSON of the wrong shape is unusable too; the retry names the bad fields', async t => {
  const { fake, provider } = await setup(t)
  const bad = { entities: [], facts: [{ subject: 'User', claim: 'x', confidence: 7 }], relationships: [] }
  fake.enqueue({ text: JSON.stringify(bad) }, { text: JSON.stringify(bad) })
  const out = await new ExtractionRun('llm', extractor(provider), new OfflineExtractor()).extract(TURNS)
  t.equal(out.extractor, 'offline')
  t.match(out.fallback_reason, /does not match the schema/)
  t.match(fake.completions[1].body.messages.at(-1).content, /facts/)
})

t.test('a model that never answers: timed out, offline runs, and auto stops asking for the rest of the run', async t => {
  const { fake, provider } = await setup(t)
  fake.enqueue({ hang: true })
  const run = new ExtractionRun('auto', extractor(provider, 300), new OfflineExtractor())
  const first = await run.extract(TURNS)
  t.equal(first.extractor, 'offline')
  t.match(first.fallback_reason, /did not answer within 300 ms/)
  const second = await run.extract([{ id: 'turn-2', content: 'I live in Bergen.' }])
  t.equal(second.extractor, 'offline')
  t.match(second.fallback_reason, /did not answer/)
  t.equal(fake.completions.length, 1, 'the dead model was asked once in this run')
})

t.test('an upstream error falls back at once (no retry of a refused request)', async t => {
  const { fake, provider } = await setup(t)
  fake.enqueue({ status: 500, message: 'boom' })
  const out = await new ExtractionRun('llm', extractor(provider), new OfflineExtractor()).extract(TURNS)
  t.equal(out.extractor, 'offline')
  t.match(out.fallback_reason, /failed/)
  t.equal(fake.completions.length, 1)
})

t.test('offline mode never asks the model', async t => {
  const { fake, provider } = await setup(t)
  const out = await new ExtractionRun('offline', extractor(provider), new OfflineExtractor()).extract(TURNS)
  t.equal(out.extractor, 'offline')
  t.equal(fake.completions.length, 0)
})

t.test('jsonIn: bare, fenced, and wrapped in words', async t => {
  t.same(jsonIn('{"a":1}'), { a: 1 })
  t.same(jsonIn('```json\n{"a":2}\n```'), { a: 2 })
  t.same(jsonIn('Sure! {"a":3} hope that helps'), { a: 3 })
  t.throws(() => jsonIn('no json here'))
})
