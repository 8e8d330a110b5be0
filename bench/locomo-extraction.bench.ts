// Fact extraction on real conversations: LoCoMo's development set (../shared/data/locomo-dev,
// read in place: CC BY-NC, never copied into the repository; the bench says so and stops
// when it is missing). Every turn is written through POST /api/memory/turns with its
// speaker as `name` and its session's date as `timestamp` (one conversation per LoCoMo
// session, one channel per LoCoMo conversation), the conversations consolidated with the
// offline extractor (embedded defaults, no language model), and the facts read back with
// their source turn. Against LoCoMo's `observation` annotations (atomic facts per speaker,
// each with the turn it comes from), the match defined in locomo/observations.ts:
// - coverage: the share of observations for which a fact from their evidence turn states
//   the same thing;
// - junk: the share of facts that match no observation of their own turn;
// - attribution: the share of facts from a named speaker's turn whose claim names that
//   speaker (not "the user"), and of matched facts, the share naming the observation's speaker.
// Env: BENCH_LOCOMO_CONVS=n (the first n conversations), BENCH_LOCOMO_SAMPLE=n (print n
// matched and n unmatched facts beside their turn's observations, to check the match by eye).
import { startShipped } from './recall-eval/server.ts'
import { loadLocomoOrExit } from './locomo/data.ts'
import { allFacts, consolidateAll, ingest } from './locomo/ingest.ts'
import { contentWords, matches } from './locomo/observations.ts'

const full = loadLocomoOrExit()
const convs = full.convs.slice(0, Number(process.env.BENCH_LOCOMO_CONVS ?? full.convs.length))
const set = { ...full, convs, turns: full.turns.filter(t => convs.includes(t.conv)), observations: full.observations.filter(o => convs.includes(o.conv)) }
const speakersOf = new Map(convs.map(c => [c, [...new Set(set.turns.filter(t => t.conv === c).map(t => t.speaker))]]))
const speakerOfTurn = new Map(set.turns.map(t => [`${t.conv}/${t.dia}`, t.speaker]))
const textOfTurn = new Map(set.turns.map(t => [`${t.conv}/${t.dia}`, t.text]))

const server = await startShipped(() => ({ text: 'OK.' }))
try {
  const ing = await ingest(server, set, 'turns')
  const c = await consolidateAll(server)
  const facts = (await Promise.all(convs.map(async ch => await allFacts(server, ch)))).map((list, i) => list.map(f => ({ ...f, conv: convs[i] }))).flat()
  const obsByTurn = new Map<string, Array<{ speaker: string, text: string, words: Set<string>, covered: boolean }>>()
  for (const o of set.observations) {
    const key = `${o.conv}/${o.dia}`
    const list = obsByTurn.get(key) ?? []
    list.push({ speaker: o.speaker, text: o.text, words: contentWords(o.text, speakersOf.get(o.conv) ?? []), covered: false })
    obsByTurn.set(key, list)
  }
  let junk = 0; let named = 0; let fromNamed = 0; let matchedNamed = 0; let matchedFacts = 0
  const sample: { hit: string[], miss: string[] } = { hit: [], miss: [] }
  for (const f of facts) {
    const dia = ing.diaById.get(f.source_turn_id ?? '')
    const key = `${f.conv}/${dia ?? ''}`
    const speaker = speakerOfTurn.get(key)
    if (speaker !== undefined) { fromNamed++; if (f.claim.includes(speaker)) named++ }
    const words = contentWords(f.claim, speakersOf.get(f.conv) ?? [])
    const hits = (obsByTurn.get(key) ?? []).filter(o => matches(words, o.words))
    for (const o of hits) o.covered = true
    if (hits.length === 0) junk++
    else { matchedFacts++; if (hits.some(o => f.claim.includes(o.speaker))) matchedNamed++ }
    const line = `  fact: ${f.claim}\n  turn: ${textOfTurn.get(key) ?? '?'}\n  obs:  ${(obsByTurn.get(key) ?? []).map(o => o.text).join(' | ') || '(none)'}`
    ;(hits.length > 0 ? sample.hit : sample.miss).push(line)
  }
  const obs = [...obsByTurn.values()].flat()
  const covered = obs.filter(o => o.covered).length
  const r = (a: number, b: number): string => `${a}/${b} = ${(a / Math.max(b, 1)).toFixed(3)}`
  const user = c.runs.reduce((n, m) => n + Number(m.user_turns ?? 0), 0)
  const skipped = c.runs.reduce((n, m) => n + Number(m.turns_skipped ?? 0), 0)
  console.log(`LoCoMo dev extraction: ${convs.length} conversations, ${set.turns.length} turns written in ${ing.seconds.toFixed(1)} s, consolidated (offline) in ${c.seconds.toFixed(1)} s; ${user} turns read, ${skipped} skipped as junk; ${facts.length} facts, ${obs.length} observations`)
  console.log(`coverage (observations matched by a fact from their evidence turn): ${r(covered, obs.length)}`)
  console.log(`junk (facts matching no observation of their turn):               ${r(junk, facts.length)}`)
  console.log(`attribution (facts from a named speaker's turn naming the speaker): ${r(named, fromNamed)}; matched facts naming the observation's speaker: ${r(matchedNamed, matchedFacts)}`)
  const n = Number(process.env.BENCH_LOCOMO_SAMPLE ?? 0)
  if (n > 0) {
    const pick = (xs: string[]): string[] => xs.filter((_, i) => i % Math.max(1, Math.floor(xs.length / n)) === 0).slice(0, n)
    console.log(`\nmatched (a sample):\n${pick(sample.hit).join('\n\n')}\n\nunmatched (a sample):\n${pick(sample.miss).join('\n\n')}`)
  }
} finally {
  await server.close()
}
