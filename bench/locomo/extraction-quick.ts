// The extraction measures of bench/locomo-extraction.bench.ts in one process, without a
// server: each LoCoMo session's turns through the consolidation job's own steps (junk
// filter, offline extractor, speaker attribution) and matched against the observations.
// A minute or two instead of the bench's many, to try a change to the extractor; the bench
// (through the API, the facts as stored) is the figure to report.
//   npx tsx bench/locomo/extraction-quick.ts [sample n]
import { loadNlp } from '@agentd/sdk/kits/memory'
import { loadLocomoOrExit } from './data.ts'
import { contentWords, matches } from './observations.ts'
import { cleanTurn } from '../../plugins/job-consolidate/consolidate-job.ts'
import { extractOffline } from '../../plugins/job-consolidate/offline-extractor.ts'
import { attributeSpeakers } from '../../plugins/job-consolidate/speakers.ts'
import type { ExtractionTurn } from '../../plugins/job-consolidate/extraction.ts'

const set = loadLocomoOrExit()
const nlp = await loadNlp()
const speakersOf = new Map(set.convs.map(c => [c, [...new Set(set.turns.filter(t => t.conv === c).map(t => t.speaker))]]))
const obsByTurn = new Map<string, Array<{ words: Set<string>, text: string, covered: boolean }>>()
for (const o of set.observations) {
  const key = `${o.conv}/${o.dia}`
  obsByTurn.set(key, [...(obsByTurn.get(key) ?? []), { words: contentWords(o.text, speakersOf.get(o.conv) ?? []), text: o.text, covered: false }])
}
const sessions = new Map<string, typeof set.turns>()
for (const t of set.turns) sessions.set(`${t.conv}/${t.session}`, [...(sessions.get(`${t.conv}/${t.session}`) ?? []), t])
let facts = 0; let junk = 0
const byKind = new Map<string, number>()
const miss: string[] = []
const t0 = performance.now()
for (const session of sessions.values()) {
  const turns: ExtractionTurn[] = session.map(t => ({ id: `${t.conv}/${t.dia}`, content: cleanTurn(t.text, () => false), speaker: t.speaker })).filter(t => t.content !== '')
  const x = attributeSpeakers(extractOffline(nlp, turns), turns)
  for (const f of x.facts) {
    const key = turns[f.turn ?? -1]?.id ?? ''
    const hits = (obsByTurn.get(key) ?? []).filter(o => matches(contentWords(f.claim, speakersOf.get(session[0].conv) ?? []), o.words))
    facts++
    const tag = `${f.predicate}/${hits.length > 0 ? 'hit' : obsByTurn.has(key) ? 'junk' : 'junk-no-obs'}`
    byKind.set(tag, (byKind.get(tag) ?? 0) + 1)
    if (hits.length === 0) { junk++; miss.push(`${f.claim}  <=  ${(obsByTurn.get(key) ?? []).map(o => o.text).join(' | ') || '(none)'}`) }
    for (const o of hits) o.covered = true
  }
}
const obs = [...obsByTurn.values()].flat()
const covered = obs.filter(o => o.covered).length
console.log(`${facts} facts in ${((performance.now() - t0) / 1000).toFixed(1)} s; coverage ${covered}/${obs.length} = ${(covered / obs.length).toFixed(3)}; junk ${junk}/${facts} = ${(junk / facts).toFixed(3)}`)
console.log([...byKind].sort().map(([k, v]) => `${k} ${v}`).join(', '))
const n = Number(process.argv[2] ?? 0)
for (let i = 0; i < n; i++) console.log('junk:', miss[Math.floor(i * miss.length / n)])
const textOf = new Map(set.turns.map(t => [`${t.conv}/${t.dia}`, t.text]))
const uncovered = [...obsByTurn.entries()].flatMap(([k, list]) => list.filter(o => !o.covered).map(o => `${o.text}  <=  ${textOf.get(k) ?? '?'}`))
for (let i = 0; i < n; i++) console.log('missed:', uncovered[Math.floor(i * uncovered.length / n)])
