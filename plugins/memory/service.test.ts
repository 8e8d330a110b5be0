// Unit tests of the memory service's choices that need no database: embedder selection
// and the embed-hash stand-in while a model loads, claim hashing, rendering budget.
import t from 'tap'
import pino from 'pino'
import { createRegistry, type Registry } from '@agentd/sdk'
import { Hooks } from '@agentd/sdk'
import { HashEmbedder } from '../embed-hash/hash-embedder.ts'
import { LocalEmbedder, type Extractor } from '../embed-local/local-embedder.ts'
import { MemoryServiceImpl, claimHash } from './service.ts'
import { renderBundle, estimateTokens } from './render.ts'

const opts = { tokenBudget: 1000, topK: 10, workingMemoryTurns: 20, workingMemoryTtlSeconds: 60, recencyWeight: 0.2, recencyHalfLifeHours: 24 }
const log = pino({ level: 'silent' })

function service (reg: Registry, extra: Partial<typeof opts> & { embedder?: string, embeddingProvider?: string } = {}): MemoryServiceImpl {
  return new MemoryServiceImpl(() => reg, () => new Hooks(), log, { ...opts, ...extra })
}

t.test('EMBEDDING_PROVIDER picks embed-<provider>; embed-hash serves while the model loads', async t => {
  const reg = createRegistry()
  reg.embedders.add('embed-hash', new HashEmbedder())
  let release!: () => void
  const gate = new Promise<void>(resolve => { release = resolve })
  const fake: Extractor = async texts => ({ tolist: () => texts.map(() => [1, 0, 0, 0]) })
  const local = new LocalEmbedder({ model: 'm', dimensions: 4, loader: async () => { await gate; return fake } })
  reg.embedders.add('embed-local', local)
  const svc = service(reg, { embeddingProvider: 'local' })
  t.equal(svc.embedder(), local)
  const first = await svc.embed('hello there')
  t.equal(first?.embedder, 'hash-v1', 'not held up by the loading model')
  t.equal(local.status().status, 'loading', 'the model started loading in the background')
  release()
  await new Promise(resolve => setTimeout(resolve, 20))
  t.equal(local.status().status, 'ready')
  const later = await svc.embed('hello there')
  t.equal(later?.embedder, 'local:m')
})

t.test('a model that cannot load leaves embed-hash serving', async t => {
  const reg = createRegistry()
  reg.embedders.add('embed-hash', new HashEmbedder())
  reg.embedders.add('embed-local', new LocalEmbedder({ model: 'm', dimensions: 4, loader: async () => { throw new Error('fetch failed') } }))
  const svc = service(reg, { embeddingProvider: 'local' })
  t.equal((await svc.embed('x y z'))?.embedder, 'hash-v1')
  await new Promise(resolve => setTimeout(resolve, 20))
  t.equal((await svc.embed('x y z'))?.embedder, 'hash-v1')
})

t.test('without an embedder, or for blank text, there is no vector', async t => {
  t.equal(await service(createRegistry()).embed('hi'), undefined)
  const reg = createRegistry()
  reg.embedders.add('embed-hash', new HashEmbedder())
  t.equal(await service(reg).embed('   '), undefined)
})

t.test('no store: the chat-facing calls resolve and say why', async t => {
  const svc = service(createRegistry())
  const r = await svc.storeTurn({ conversation_id: 'c', role: 'user', content: 'x' })
  t.equal(r.stored, false)
  t.match(r.error, /memory-sql/)
  const bundle = await svc.recall({ text: 'x' })
  t.equal(bundle.context, '')
  const bad = await svc.storeTurn({ conversation_id: 'c', role: 'user', content: 'x', channel: '../etc' })
  t.equal(bad.stored, false)
  t.match(bad.error, /invalid/)
})

t.test('claim hashes ignore case, spacing and final punctuation', async t => {
  t.equal(claimHash('The sky is blue.'), claimHash('  the SKY is   blue '))
  t.not(claimHash('The sky is blue'), claimHash('The sky is green'))
  t.match(claimHash('x'), /^[0-9a-f]{64}$/)
})

t.test('rendering keeps to the token budget and puts facts first', async t => {
  const bundle = {
    relevant_turns: Array.from({ length: 50 }, (_, i) => ({ role: 'user', content: `turn number ${i} with some words in it` })),
    facts: [{ claim: 'The user is vegetarian', temporal_context: 'current' }],
    entities: [], strategies: [], active_goals: [], user_context: {},
  }
  const text = renderBundle(bundle, 60)
  t.ok(estimateTokens(text) <= 60 + 15, `${estimateTokens(text)} tokens`)
  t.ok(text.indexOf('vegetarian') < text.indexOf('turn number'))
  t.equal(renderBundle({ ...bundle, relevant_turns: [], facts: [] }, 100), '')
})
