// Quick in-memory vector-only recall@10 of an embedder on the evaluation set (no database):
// for tuning an embedder in seconds. `npx tsx bench/recall-eval/quick-vector.ts`
import { hashEmbedV1 as h1, hashEmbed as h2 } from '../../plugins/embed-hash/hash-embedder.ts'

const hashEmbed = process.env.V1 === '1' ? h1 : h2
import { ASSISTANT_REPLIES, loadEvalSet, withDistractors } from './dataset.ts'
import { contentKey } from '@agentd/sdk/kits/recall'

const set = withDistractors(loadEvalSet())
const dims = Number(process.env.DIMS ?? 384)
interface Doc { id: string, channel: string, content: string, v: number[] }
const docs: Doc[] = []
let reply = 0
const t0 = performance.now()
set.turns.forEach((t, i) => {
  docs.push({ id: t.tag !== undefined ? `${t.channel}/${t.tag}` : `u${i}`, channel: t.channel, content: t.message, v: hashEmbed(t.message, dims) })
  const r = ASSISTANT_REPLIES[reply++ % ASSISTANT_REPLIES.length]
  docs.push({ id: `a${i}`, channel: t.channel, content: r, v: hashEmbed(r, dims) })
})
const embedMs = (performance.now() - t0) / docs.length
const cos = (a: number[], b: number[]): number => { let s = 0; for (let i = 0; i < a.length; i++) s += a[i] * b[i]; return s }
const cats: Record<string, { hit: number, n: number }> = {}
let hit = 0; let n = 0
for (const q of set.questions) {
  const qv = hashEmbed(q.question, dims)
  const ranked = docs.filter(d => d.channel === q.channel).map(d => ({ d, s: cos(qv, d.v) })).sort((a, b) => b.s - a.s)
  const seen = new Set<string>(); const top: string[] = []
  for (const { d } of ranked) { const k = contentKey(d.content); if (seen.has(k)) continue; seen.add(k); top.push(d.id); if (top.length === 10) break }
  const c = cats[q.category] ??= { hit: 0, n: 0 }
  for (const e of q.evidence) { n++; c.n++; if (top.includes(`${q.channel}/${e}`)) { hit++; c.hit++ } else if (process.env.V === '1') console.log(`miss [${q.category}] ${q.question} -> ${e}`) }
}
console.log(`vector R@10 ${(hit / n).toFixed(3)}  ${Object.entries(cats).map(([k, c]) => `${k} ${(c.hit / c.n).toFixed(3)}`).join('  ')}  embed ${(embedMs * 1000).toFixed(0)} us/text`)
