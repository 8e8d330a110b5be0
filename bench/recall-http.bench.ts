// Recall quality measured the way issue 17's held-out benchmark measures it, end to end
// through the server: every message of the evaluation set (bench/fixtures/recall-eval)
// sent to POST /api/agent/chat with its channel and `use_memory: true` and no session (one
// conversation per message), the model a fake OpenAI upstream on loopback answering with
// short, often identical replies ("OK."), then each question asked with
// POST /api/memory/recall `{query, top_k: 10, channel}`. One agentd in this process on the
// shipped plugins.json and embedded defaults (PGlite, embed-hash), no language model.
// BM25 baseline in the same run: minisearch over the same stored texts (messages and
// replies), per channel. recall@k = share of evidence turns among the first k turns.
// Env: BENCH_RECALL_DISTRACTORS=sessions|turns|0 (default sessions: the other channels'
// sessions copied in as whole sessions, so each channel reads as one long conversation,
// the held-out set's shape; see withDistractors in recall-eval/dataset.ts).
// Exit code 1 when the recall is under 0.70 at @10, or below BM25 overall or in a category.
import MiniSearch from 'minisearch'
import { STOPWORDS } from '@agentd/sdk/kits/recall'
import { until } from '../test/helpers/poll.ts'
import { ASSISTANT_REPLIES, loadEvalSet, withDistractors } from './recall-eval/dataset.ts'
import { startShipped } from './recall-eval/server.ts'

const KS = [1, 5, 10] as const
const mix = process.env.BENCH_RECALL_DISTRACTORS ?? 'sessions'
const set = mix === '0' ? loadEvalSet() : withDistractors(loadEvalSet(), mix === 'turns' ? 'turns' : 'sessions')

let reply = 0
const replies: Array<{ channel: string, text: string }> = []
const { base, fake, post, close } = await startShipped(() => ({ text: ASSISTANT_REPLIES[reply++ % ASSISTANT_REPLIES.length] }))
try {
  const t0 = performance.now()
  for (const turn of set.turns) {
    const r = await post('/api/agent/chat', { message: turn.message, channel: turn.channel, use_memory: true })
    if (r.status !== 200) throw new Error(`chat: ${r.status} ${await r.text()}`)
    const body = await r.json() as { response?: string }
    replies.push({ channel: turn.channel, text: String(body.response ?? '') })
    fake.requests.length = 0 // the fake keeps what it saw; only agentd is measured
  }
  const ingestS = (performance.now() - t0) / 1000
  // The replies are stored after each response (off the request path): wait until the last one is.
  const stored = async (): Promise<number> => ((await (await fetch(`${base}/api/memory/stats`)).json()) as { totals: { turns: number } }).totals.turns
  await until('every turn stored', async () => await stored() >= 2 * set.turns.length, 60_000)

  const mini = new MiniSearch<{ id: number, content: string, channel: string }>({ fields: ['content'], storeFields: ['content', 'channel'], processTerm: t => STOPWORDS.has(t.toLowerCase()) ? null : t.toLowerCase() })
  mini.addAll([...set.turns.map(t => ({ channel: t.channel, content: t.message })), ...replies.map(r => ({ channel: r.channel, content: r.text }))].map((d, id) => ({ id, ...d })))
  const message = new Map(set.turns.filter(t => t.tag !== undefined).map(t => [`${t.channel}/${t.tag}`, t.message]))

  type Ranker = (q: { question: string, channel: string }) => Promise<string[]>
  const rankers: Array<[string, Ranker]> = [
    ['bm25 (minisearch)', async q => mini.search(q.question, { filter: r => r.channel === q.channel }).slice(0, 10).map(r => String(r.content))],
    ['POST /api/memory/recall', async q => {
      const r = await post('/api/memory/recall', { query: q.question, top_k: 10, channel: q.channel })
      if (r.status !== 200) throw new Error(`recall: ${r.status} ${await r.text()}`)
      return ((await r.json()) as { relevant_turns: Array<{ content: string }> }).relevant_turns.map(t => t.content)
    }],
  ]
  const categories = [...new Set(set.questions.map(q => q.category))]
  const scores = new Map<string, { at: Record<number, number>, n: number, byCat: Record<string, [number, number]> }>()
  for (const [name, rank] of rankers) {
    const sc = { at: { 1: 0, 5: 0, 10: 0 } as Record<number, number>, n: 0, byCat: Object.fromEntries(categories.map(c => [c, [0, 0]])) as Record<string, [number, number]> }
    for (const q of set.questions) {
      const contents = await rank(q)
      for (const e of q.evidence) {
        const pos = contents.indexOf(message.get(`${q.channel}/${e}`) ?? '')
        sc.n++; sc.byCat[q.category][1]++
        for (const k of KS) if (pos >= 0 && pos < k) sc.at[k]++
        if (pos >= 0 && pos < 10) sc.byCat[q.category][0]++
      }
    }
    scores.set(name, sc)
  }
  console.log(`Recall through the API: ${set.turns.length} messages sent as chats (distractors: ${mix}) in ${set.channels.length} channels in ${ingestS.toFixed(1)} s, ${set.questions.length} questions`)
  console.log(`${'ranker'.padEnd(24)} ${KS.map(k => `R@${k}`.padStart(6)).join(' ')}  ${categories.map(c => `${c}@10`.padStart(14)).join(' ')}`)
  for (const [name, sc] of scores) console.log(`${name.padEnd(24)} ${KS.map(k => (sc.at[k] / sc.n).toFixed(3).padStart(6)).join(' ')}  ${categories.map(c => (sc.byCat[c][0] / sc.byCat[c][1]).toFixed(3).padStart(14)).join(' ')}`)
  const ours = scores.get('POST /api/memory/recall')
  const bm25 = scores.get('bm25 (minisearch)')
  if (ours !== undefined && bm25 !== undefined) {
    const r10 = ours.at[10] / ours.n
    const below = categories.filter(c => ours.byCat[c][0] / ours.byCat[c][1] < bm25.byCat[c][0] / bm25.byCat[c][1])
    console.log(`\nTarget: recall@10 >= 0.70 (${r10.toFixed(3)}: ${r10 >= 0.7 ? 'met' : 'NOT met'}); never below BM25 in a category (${below.length === 0 ? 'met' : `NOT met: ${below.join(', ')}`})`)
    if (r10 < 0.7 || below.length > 0) process.exitCode = 1
  }
} finally {
  await close()
}
