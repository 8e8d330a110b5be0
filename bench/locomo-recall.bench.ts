// Recall on LoCoMo's development conversations (../shared/data/locomo-dev, read in place:
// CC BY-NC, never copied into the repository; the bench says so and stops when it is
// missing), by the held-out run's protocol (its README): one agentd on the shipped
// plugins.json and embedded defaults, a fake model answering "OK.", every turn sent as a
// chat `[<session date>] <speaker>: <text>` in its conversation's channel (one chat session
// per LoCoMo session), then each question of categories 1-4 asked with POST
// /api/memory/recall `{query, top_k: 10, channel}`; a returned turn counts by its content.
// recall@10 = the share of a question's evidence turns among the first ten, averaged per
// category and overall; BM25 (minisearch, BM25+ k 1.2, b 0.7) over the same stored texts
// in the same run. Then the conversations are consolidated (offline extractor) and the
// questions asked again: turn recall after consolidation, and fact recall: of the
// questions one of whose evidence turns gave a fact, how often such a fact is among the
// answer's facts.
// Env: BENCH_LOCOMO_INGEST=chat|turns (default chat; turns: POST /api/memory/turns with the
// speaker as `name` and the session date as `timestamp`), BENCH_LOCOMO_CONVS=n (the first
// n conversations), BENCH_LOCOMO_FACTS=0 (no consolidation), BENCH_LOCOMO_VERBOSE=1 (misses),
// BENCH_LOCOMO_EMBEDDER=onnx|use|glove|hash (memory's embedder, unset: the default, embed-onnx; ONNX_EMBEDDING_MODEL embed-onnx's model, as EMBEDDING_PROVIDER picks it;
// the model is loaded before the first turn, so no turn is stored by embed-hash meanwhile),
// BENCH_LOCOMO_VARIANTS='recall_enable_time=false;recall_hybrid_rrf_k=20' (after the first
// recall, the questions asked again under each set of recall settings in turn, `;` between
// sets, `,` between keys, each set undone after: what a technique or a weight changes, on
// the same stored turns in the same run).
import MiniSearch from 'minisearch'
import { STOPWORDS } from '@agentd/sdk/kits/recall'
import { startShipped, type BenchServer } from './recall-eval/server.ts'
import { loadLocomoOrExit, type LocomoQuestion } from './locomo/data.ts'
import { allFacts, consolidateAll, ingest, type IngestMode, type Ingested } from './locomo/ingest.ts'

const CATEGORIES: Record<number, string> = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop' }
const full = loadLocomoOrExit()
const convs = full.convs.slice(0, Number(process.env.BENCH_LOCOMO_CONVS ?? full.convs.length))
const set = { ...full, convs, turns: full.turns.filter(t => convs.includes(t.conv)), questions: full.questions.filter(q => convs.includes(q.conv)) }
const mode: IngestMode = process.env.BENCH_LOCOMO_INGEST === 'turns' ? 'turns' : 'chat'
const questions = set.questions.filter(q => q.category in CATEGORIES && q.evidence.length > 0)

interface Answer { dias: string[], factSources: string[], ms: number }
type Ranker = (q: LocomoQuestion) => Promise<Answer>
interface Score { sum: number, n: number, byCat: Record<number, [number, number]>, ms: number[] }

function score (answers: Answer[]): Score {
  const sc: Score = { sum: 0, n: 0, byCat: { 1: [0, 0], 2: [0, 0], 3: [0, 0], 4: [0, 0] }, ms: [] }
  questions.forEach((q, i) => {
    const top = new Set(answers[i].dias.slice(0, 10))
    const r = q.evidence.filter(e => top.has(e)).length / q.evidence.length
    sc.sum += r; sc.n++
    sc.byCat[q.category][0] += r; sc.byCat[q.category][1]++
    sc.ms.push(answers[i].ms)
  })
  return sc
}

const recallVia = (s: BenchServer, ing: Ingested): Ranker => async q => {
  const t0 = performance.now()
  const r = await s.post('/api/memory/recall', { query: q.question, top_k: 10, channel: q.conv })
  const ms = performance.now() - t0
  if (r.status !== 200) throw new Error(`recall: ${r.status} ${await r.text()}`)
  const body = await r.json() as { relevant_turns: Array<{ content: string }>, facts: Array<{ source_turn_id?: string | null }> }
  const byContent = ing.diaByContent.get(q.conv)
  return {
    dias: body.relevant_turns.map(t => byContent?.get(t.content) ?? ''),
    factSources: body.facts.map(f => ing.diaById.get(f.source_turn_id ?? '') ?? ''),
    ms,
  }
}

function bm25 (ing: Ingested): Ranker {
  // The same texts the store holds: every message, and each chat's reply ("OK.", one per message).
  const docs = set.turns.map((t, id) => ({ id, channel: t.conv, content: mode === 'chat' ? t.message : t.text, dia: t.dia }))
  const replies = mode === 'chat' ? set.turns.map((t, i) => ({ id: docs.length + i, channel: t.conv, content: 'OK.', dia: '' })) : []
  const mini = new MiniSearch<{ id: number, channel: string, content: string, dia: string }>({
    fields: ['content'], storeFields: ['channel', 'dia'], processTerm: t => STOPWORDS.has(t.toLowerCase()) ? null : t.toLowerCase(),
    searchOptions: { bm25: { k: 1.2, b: 0.7, d: 0.5 } },
  })
  mini.addAll([...docs, ...replies])
  return async q => {
    const t0 = performance.now()
    const hits = mini.search(q.question, { filter: r => r.channel === q.conv }).slice(0, 10)
    return { dias: hits.map(h => String(h.dia)), factSources: [], ms: performance.now() - t0 }
  }
}

const run = async (rank: Ranker): Promise<Answer[]> => { const out: Answer[] = []; for (const q of questions) out.push(await rank(q)); return out }
const f3 = (x: number): string => x.toFixed(3)
const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? 0
function row (name: string, sc: Score): string {
  return `${name.padEnd(30)} ${f3(sc.sum / sc.n).padStart(6)}  ${[1, 2, 3, 4].map(c => f3(sc.byCat[c][0] / Math.max(sc.byCat[c][1], 1)).padStart(11)).join(' ')}  ${pct(sc.ms, 0.5).toFixed(1).padStart(6)} ${pct(sc.ms, 0.95).toFixed(1).padStart(6)}`
}

/** Of the questions with a fact from one of their evidence turns, how often such a fact is among the answer's facts. */
function factRecall (answers: Answer[], factTurns: Set<string>): { hit: number, n: number } {
  let hit = 0; let n = 0
  questions.forEach((q, i) => {
    const keys = q.evidence.map(e => `${q.conv}/${e}`).filter(k => factTurns.has(k))
    if (keys.length === 0) return
    n++
    if (answers[i].factSources.some(d => keys.includes(`${q.conv}/${d}`))) hit++
  })
  return { hit, n }
}

/** Loads the embedder memory uses (a model loads on first use) and names it. */
async function embedderReady (s: BenchServer): Promise<string> {
  const which = process.env.BENCH_LOCOMO_EMBEDDER
  if (which !== undefined) {
    const t0 = performance.now()
    const r = await s.post('/v1/embeddings', { model: `embed-${which}`, input: 'warm up' })
    if (r.status !== 200) throw new Error(`embedder embed-${which}: ${r.status} ${await r.text()}`)
    console.log(`embed-${which} loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  }
  const h = await (await fetch(`${s.base}/api/health?include_memory=true`)).json() as { memory?: { embedder?: { id?: string, status?: string } } }
  const e = h.memory?.embedder
  if (e?.status !== 'ready') throw new Error(`memory's embedder is not ready: ${JSON.stringify(e)}`)
  return e.id ?? '?'
}

const embedderEnv: Record<string, string> = {
  ...(process.env.BENCH_LOCOMO_EMBEDDER === undefined ? {} : { EMBEDDING_PROVIDER: process.env.BENCH_LOCOMO_EMBEDDER }),
  // embed-onnx's model (all-minilm-l6-v2-q, bge-small-en-v1.5-q, e5-small-v2-q).
  ...(process.env.ONNX_EMBEDDING_MODEL === undefined ? {} : { ONNX_EMBEDDING_MODEL: process.env.ONNX_EMBEDDING_MODEL }),
}
const server = await startShipped(() => ({ text: 'OK.' }), embedderEnv)
try {
  const embedderId = await embedderReady(server)
  const ing = await ingest(server, set, mode)
  const rate = mode === 'chat' ? `${(ing.chats / ing.seconds).toFixed(1)} chats/s` : `${(set.turns.length / ing.seconds).toFixed(0)} turns/s`
  console.log(`LoCoMo dev: ${set.convs.length} conversations, ${set.turns.length} turns sent by ${mode} in ${ing.seconds.toFixed(1)} s (${rate}), ${questions.length} questions (categories 1-4), embedder ${embedderId}`)
  console.log(`${'ranker'.padEnd(30)} ${'R@10'.padStart(6)}  ${[1, 2, 3, 4].map(c => `${c} ${CATEGORIES[c]}`.padStart(11)).join(' ')}  ${'p50ms'.padStart(6)} ${'p95ms'.padStart(6)}`)
  const base = score(await run(bm25(ing)))
  console.log(row('bm25 (minisearch)', base))
  const before = await run(recallVia(server, ing))
  const ours = score(before)
  console.log(row('POST /api/memory/recall', ours))
  if (process.env.BENCH_LOCOMO_VERBOSE === '1') {
    questions.forEach((q, i) => { const miss = q.evidence.filter(e => !before[i].dias.slice(0, 10).includes(e)); if (miss.length > 0) console.error(`miss [${q.category}] ${q.conv} ${q.question} -> ${miss.join(',')}`) })
  }
  for (const variant of (process.env.BENCH_LOCOMO_VARIANTS ?? '').split(';').filter(v => v.trim() !== '')) {
    const change = Object.fromEntries(variant.split(',').map(kv => kv.split('=').map(x => x.trim())).map(([k, v]) => [k, v === 'true' ? true : v === 'false' ? false : Number(v)]))
    const current = await (await fetch(`${server.base}/api/memory/recall-settings`)).json() as Record<string, unknown>
    const set = async (values: Record<string, unknown>): Promise<void> => { const r = await server.post('/api/memory/recall-settings', values); if (r.status !== 200) throw new Error(`recall-settings ${JSON.stringify(values)}: ${r.status} ${await r.text()}`) }
    await set(change)
    console.log(row(`  ${variant.replace(/recall_(enable_)?/g, '')}`, score(await run(recallVia(server, ing)))))
    await set(Object.fromEntries(Object.keys(change).map(k => [k, current[k]])))
  }
  if (process.env.BENCH_LOCOMO_FACTS !== '0') {
    const c = await consolidateAll(server)
    const facts = (await Promise.all(set.convs.map(async ch => await allFacts(server, ch)))).flat()
    const factTurns = new Set(facts.flatMap(f => { const d = ing.diaById.get(f.source_turn_id ?? ''); return d === undefined ? [] : [`${f.channel}/${d}`] }))
    const after = await run(recallVia(server, ing))
    console.log(row('recall after consolidation', score(after)))
    const fr = factRecall(after, factTurns)
    console.log(`\nConsolidation (offline) in ${c.seconds.toFixed(1)} s: ${facts.length} facts from ${factTurns.size} turns. Fact recall: ${fr.hit}/${fr.n} = ${f3(fr.hit / Math.max(fr.n, 1))} of the questions with a fact from an evidence turn get one among the answer's facts (${fr.n} of ${questions.length} questions have one).`)
  }
  const below = [1, 2, 3, 4].filter(c => ours.byCat[c][0] / ours.byCat[c][1] < base.byCat[c][0] / base.byCat[c][1])
  console.log(`\nTarget (held-out): recall@10 >= 0.75 (dev ${f3(ours.sum / ours.n)}), above BM25 in every category (${below.length === 0 ? 'met' : `NOT met: ${below.join(', ')}`})`)
} finally {
  await server.close()
}
