// Extraction quality of the offline extractor on the labelled set (bench/fixtures/
// extraction-set.ts): precision, recall and F1 of entities and facts, and facts taken from
// small talk. Targets: entities F1 >= 0.85, facts F1 >= 0.7, junk facts 0.
// `npm run bench -- extraction`; `-- extraction --misses` also lists every miss.
import { OfflineExtractor } from '../plugins/job-consolidate/offline-extractor.ts'
import { EXTRACTION_SET } from './fixtures/extraction-set.ts'
import { EXTRACTION_HELDOUT } from './fixtures/extraction-heldout.ts'
import { scoreExtractor, type Prf } from './fixtures/extraction-score.ts'

const pct = (x: number): string => (x * 100).toFixed(1).padStart(5)
const row = (name: string, p: Prf): string => `${name.padEnd(9)} precision ${pct(p.precision)}%  recall ${pct(p.recall)}%  F1 ${p.f1.toFixed(3)}  (tp ${p.tp}, fp ${p.fp}, fn ${p.fn})`

const report = async (title: string, set: typeof EXTRACTION_SET): Promise<Awaited<ReturnType<typeof scoreExtractor>>> => {
  const smallTalk = set.filter(t => t.smallTalk === true).length
  const t0 = performance.now()
  const score = await scoreExtractor(new OfflineExtractor(), set)
  const ms = performance.now() - t0
  console.log(`\n${title}: ${set.length} labelled turns (${smallTalk} small talk), ${(ms / set.length).toFixed(1)} ms a turn`)
  console.log(row('entities', score.entities))
  console.log(row('facts', score.facts))
  console.log(`entity types right when the name is: ${pct(score.entity_type_accuracy)}%`)
  console.log(`junk facts from small talk: ${score.junk_facts}`)
  if (process.argv.includes('--misses')) for (const m of score.misses) console.log(`- ${m.text}\n    missing: ${m.missing.join('; ') || '-'}\n    extra:   ${m.extra.join('; ') || '-'}`)
  return score
}
// The development set was used to write the patterns; the held-out one never was.
const score = await report('development set (the patterns were written against it)', EXTRACTION_SET)
await report('held-out set (written afterwards, never tuned on)', EXTRACTION_HELDOUT)
const ok = score.entities.f1 >= 0.85 && score.facts.f1 >= 0.7 && score.junk_facts === 0
console.log(ok ? 'targets met (entities F1 >= 0.85, facts F1 >= 0.7, junk 0)' : 'TARGETS NOT MET (entities F1 >= 0.85, facts F1 >= 0.7, junk 0)')
process.exitCode = ok ? 0 : 1
