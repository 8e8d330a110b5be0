// The NLLB translator over a pipeline with the transformers.js call shape (no weights):
// what it passes to the pipeline, how it counts tokens, how it splits.
import t from 'tap'
import { type PipelineFn, LazyModel, type LogSink } from '@agentd/sdk/kits/models'
import { createNllbTranslator, nllbModel } from './nllb-backend.ts'

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined } as unknown as LogSink

function fakePipe (): PipelineFn & { calls: Array<{ input: unknown, options: unknown }> } {
  const calls: Array<{ input: unknown, options: unknown }> = []
  const fn = (async (input: string | string[], options?: Record<string, unknown>) => {
    calls.push({ input, options })
    return [{ translation_text: `T(${String(input)})` }]
  }) as PipelineFn & { calls: typeof calls }
  fn.calls = calls
  // A tokenizer that counts words plus the language token and end-of-sentence.
  fn.tokenizer = { encode: (text: string) => [...text.split(/\s+/u).filter(Boolean).map(() => 1), 2, 3] }
  return fn
}

t.test('the pipeline gets src_lang, tgt_lang and a max_new_tokens bound', async t => {
  const pipe = fakePipe()
  const model = nllbModel(pipe, 200)
  t.equal(await model.translate('Hello.', 'eng_Latn', 'fra_Latn'), 'T(Hello.)')
  t.same(pipe.calls, [{ input: 'Hello.', options: { src_lang: 'eng_Latn', tgt_lang: 'fra_Latn', max_new_tokens: 600 } }])
  t.equal(model.countTokens('one two three'), 5, 'tokens from the tokenizer')
})

t.test('the translator splits by the model tokenizer and joins the outputs', async t => {
  const pipe = fakePipe()
  const holder = new LazyModel({ model: 'nllb', what: 'translation model', load: async () => nllbModel(pipe, 8), log: quiet })
  const tr = createNllbTranslator('nllb', holder, { maxChunkTokens: 8, loadWaitMs: 1000 })
  const out = await tr.translate({ text: 'One two three. Four five six. Seven eight nine.', source: 'eng_Latn', target: 'deu_Latn' })
  t.same(pipe.calls.map(c => c.input), ['One two three. Four five six.', 'Seven eight nine.'], 'pieces within 8 tokens (6 words + 2)')
  t.equal(out, 'T(One two three. Four five six.) T(Seven eight nine.)')
})

t.test('an aborted request stops before the next piece', async t => {
  const pipe = fakePipe()
  const holder = new LazyModel({ model: 'nllb', what: 'translation model', load: async () => nllbModel(pipe, 5), log: quiet })
  const tr = createNllbTranslator('nllb', holder, { maxChunkTokens: 5, loadWaitMs: 1000 })
  const abort = new AbortController()
  abort.abort()
  await t.rejects(tr.translate({ text: 'One two. Three four. Five six.', source: 'eng_Latn', target: 'deu_Latn' }, abort.signal))
  t.equal(pipe.calls.length, 0)
})
