// The memory service's embedder choice with the real embedders (embed-hash, embed-local
// with an injected model loader): EMBEDDING_PROVIDER picks the plugin, and embed-hash
// answers while a model loads or when it cannot load.
import t from 'tap'
import pino from 'pino'
import { createRegistry, Hooks, type Registry } from '@agentd/sdk'
import { HashEmbedder } from '../../plugins/embed-hash/hash-embedder.ts'
import { LocalEmbedder, type Extractor } from '../../plugins/embed-local/local-embedder.ts'
import { MemoryServiceImpl } from '../../plugins/memory/service.ts'
import { pollUntil } from '../helpers/poll.ts'

const opts = { tokenBudget: 1000, topK: 10, workingMemoryTurns: 20, recencyWeight: 0.2, recencyHalfLifeHours: 24 }
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
  t.equal(svc.embedding.embedder(), local)
  const first = await svc.embedding.embed('hello there')
  t.equal(first?.embedder, 'hash-v2', 'not held up by the loading model')
  t.equal(local.status().status, 'loading', 'the model started loading in the background')
  release()
  t.equal(await pollUntil(() => local.status().status, s => s !== 'loading'), 'ready')
  const later = await svc.embedding.embed('hello there')
  t.equal(later?.embedder, 'local:m')
})

t.test('a model that cannot load leaves embed-hash serving', async t => {
  const reg = createRegistry()
  reg.embedders.add('embed-hash', new HashEmbedder())
  const local = new LocalEmbedder({ model: 'm', dimensions: 4, loader: async () => { throw new Error('fetch failed') } })
  reg.embedders.add('embed-local', local)
  const svc = service(reg, { embeddingProvider: 'local' })
  t.equal((await svc.embedding.embed('x y z'))?.embedder, 'hash-v2')
  t.equal(await pollUntil(() => local.status().status, s => s !== 'loading'), 'error', 'the load failed')
  t.equal((await svc.embedding.embed('x y z'))?.embedder, 'hash-v2', 'embed-hash still answers')
})

t.test('without an embedder, or for blank text, there is no vector', async t => {
  t.equal(await service(createRegistry()).embedding.embed('hi'), undefined)
  const reg = createRegistry()
  reg.embedders.add('embed-hash', new HashEmbedder())
  t.equal(await service(reg).embedding.embed('   '), undefined)
})

t.test('a text embedded lately is not embedded again: a recall\'s query, then the same message stored with its context', async t => {
  const reg = createRegistry()
  const seen: string[] = []
  reg.embedders.add('embed-counting', { id: 'counting', dimensions: 2, embed: async texts => { seen.push(...texts); return texts.map(s => [s.length, 1]) } })
  const svc = service(reg, { embedder: 'embed-counting' })
  const query = await svc.embedding.embed('where do I work?')
  const stored = await svc.embedding.embedInContext('where do I work?', ['I started at the clinic', 'hello'])
  await svc.embedding.embedInContext('At the clinic, since May.', ['where do I work?', 'I started at the clinic'])
  t.same(seen, ['where do I work?', 'I started at the clinic', 'hello', 'At the clinic, since May.'], 'each text once')
  t.ok(query !== undefined && stored !== undefined)
})

t.test('a turn of several sentences is embedded with each sentence after its speaker, and their vectors added to its own', async t => {
  const reg = createRegistry()
  const seen: string[] = []
  const axis = (s: string): number[] => s.startsWith('Wow') ? [1, 0, 0] : s.includes('beagle') ? [0, 1, 0] : s.includes('sofa') ? [0, 0, 1] : [1, 0, 0]
  reg.embedders.add('embed-counting', { id: 'counting', dimensions: 3, embed: async texts => { seen.push(...texts); return texts.map(axis) } })
  const svc = service(reg, { embedder: 'embed-counting' })
  const v = await svc.embedding.embedInContext('Wow! We adopted a beagle. It sleeps on the sofa.', [], undefined, 'Dana')
  t.same(seen, ['Wow! We adopted a beagle. It sleeps on the sofa.', 'Dana: We adopted a beagle.', 'Dana: It sleeps on the sofa.'], 'the whole, then each sentence that says something, after its speaker')
  t.same(v?.vector.map(x => Math.round(x * 1e4)), [1, 1, 1].map(x => Math.round(x / Math.sqrt(3) * 1e4)), 'the three vectors added, normalised')
  seen.length = 0
  await svc.embedding.embedInContext('[8 May 2023] Omar: No pets allowed here. The landlord forbids them.', [])
  t.same(seen.slice(1), ['Omar: No pets allowed here.', 'Omar: The landlord forbids them.'], 'without a name, the transcript label\'s speaker; the stamp left out')
})

t.test('by default memory picks embed-onnx when it is registered; EMBEDDING_PROVIDER=hash picks embed-hash', async t => {
  const reg = createRegistry()
  const hash = new HashEmbedder()
  const onnx = { id: 'onnx:test', dimensions: 2, embed: async (texts: string[]) => texts.map(() => [1, 0]) }
  reg.embedders.add('embed-hash', hash)
  reg.embedders.add('embed-onnx', onnx)
  t.equal(service(reg).embedding.embedder(), onnx)
  t.equal(service(reg, { embeddingProvider: 'hash' }).embedding.embedder(), hash)
})
