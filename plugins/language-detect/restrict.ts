// Restricts a detector's answer to the twenty languages. An answer inside them, in a
// script they use, stands. Anything else (Galician, Macedonian, Afrikaans, romanised
// Hindi, Korean...) is mapped back: the script narrows the candidates, related languages
// get a head start, and function words and telltale letters decide.
import { isDetectionCode } from '@agentd/sdk/kits/language'
import type { DetectionCode } from '@agentd/sdk/contracts/language'
import { FUNCTION_WORDS, MARK_LETTERS, URDU_LETTERS } from './cues.ts'
import type { Script, ScriptStats } from './script.ts'

const LATIN: DetectionCode[] = ['en', 'es', 'fr', 'de', 'it', 'nl', 'pl', 'pt', 'sw', 'tr', 'vi']

const BY_SCRIPT: Record<Script, DetectionCode[]> = {
  Latin: LATIN,
  Cyrillic: ['ru', 'bg'],
  Greek: ['el'],
  Arabic: ['ar', 'ur'],
  Devanagari: ['hi'],
  Thai: ['th'],
  Han: ['zh', 'ja'],
  Kana: ['ja'],
  Hangul: [],
  Other: [],
}

/** Languages outside the twenty (detector codes) -> the closest of the twenty, nearest first. */
export const NEIGHBOURS: Readonly<Record<string, DetectionCode[]>> = {
  gl: ['pt', 'es'], ca: ['es', 'fr'], oc: ['fr', 'es'], co: ['it', 'fr'], la: ['it', 'es', 'pt', 'fr'],
  eo: ['es', 'it'], ro: ['it', 'es', 'fr'], ht: ['fr'], mt: ['it'],
  lb: ['de'], yi: ['de'], af: ['nl'], fy: ['nl', 'de'], da: ['de', 'nl', 'en'], no: ['de', 'nl', 'en'], sv: ['de', 'nl', 'en'], is: ['de', 'en'],
  ga: ['en'], gd: ['en'], cy: ['en'], fil: ['en'], ms: ['en'], id: ['en'], jv: ['en'], su: ['en'], ceb: ['en'], mi: ['en'],
  cs: ['pl'], sk: ['pl'], sl: ['pl'], hr: ['pl'], bs: ['pl'], lt: ['pl'], lv: ['pl'],
  az: ['tr'], uz: ['tr'], tk: ['tr'],
  xh: ['sw'], zu: ['sw'], sn: ['sw'], ny: ['sw'], st: ['sw'], ig: ['sw'], ha: ['sw'], yo: ['sw'], so: ['sw'], mg: ['sw'], rw: ['sw'], sm: ['sw'], haw: ['sw'],
  mk: ['bg', 'ru'], sr: ['bg', 'ru'], uk: ['ru', 'bg'], be: ['ru', 'bg'], kk: ['ru'], ky: ['ru'], tg: ['ru'], mn: ['ru'],
  fa: ['ur', 'ar'], ps: ['ur', 'ar'], sd: ['ur', 'ar'], ku: ['ur', 'ar'], ug: ['ur', 'ar'], iw: ['ar'], he: ['ar'],
  ne: ['hi'], mr: ['hi'], bn: ['hi'], gu: ['hi'], pa: ['hi'], ta: ['hi'], te: ['hi'], kn: ['hi'], ml: ['hi'], si: ['hi'],
  lo: ['th'], km: ['th'], my: ['th'],
  ko: ['ja', 'zh'],
}

export interface Restricted {
  language: DetectionCode
  /** False when the script is one none of the twenty languages uses (Hangul, Hebrew...). */
  scriptKnown: boolean
  /** False when the detector's own answer stood. */
  forced: boolean
  /** 0-1: how clearly the cues picked this candidate over the others (1 when not forced). */
  certainty: number
}

const WORD = /[\p{L}\p{M}]+/gu

function cueScore (code: DetectionCode, words: string[], lower: string): number {
  const fw = FUNCTION_WORDS[code]
  let score = 0
  if (fw !== undefined) for (const w of words) if (fw.has(w)) score += 2
  const marks = MARK_LETTERS[code]
  if (marks !== undefined) for (const ch of lower) if (marks.includes(ch)) score += 3
  return score
}

export function restrict (text: string, raw: string, stats: ScriptStats): Restricted {
  const [base = '', variant] = raw.split('-')
  const byScript = stats.dominant === undefined ? [] : BY_SCRIPT[stats.dominant]
  if (isDetectionCode(base) && variant !== 'Latn' && byScript.includes(base)) return { language: base, scriptKnown: true, forced: false, certainty: 1 }

  const near = NEIGHBOURS[base] ?? []
  // Candidates: the twenty languages written in this script; for a script none of them
  // uses (Hangul, Hebrew, Bengali...), the nearest relatives; failing all, English.
  const candidates = byScript.length > 0 ? byScript : near.length > 0 ? near : ['en' as const]
  if (candidates.length === 1) return { language: candidates[0], scriptKnown: byScript.length > 0, forced: true, certainty: byScript.length > 0 ? 0.9 : 0 }

  if (stats.dominant === 'Arabic') {
    const urdu = [...text].filter(ch => URDU_LETTERS.includes(ch)).length
    return { language: urdu > 0 ? 'ur' : 'ar', scriptKnown: true, forced: true, certainty: urdu > 1 || urdu === 0 ? 0.8 : 0.5 }
  }

  const lower = text.toLowerCase()
  const words = lower.match(WORD) ?? []
  const scored = candidates.map(code => {
    const rank = near.indexOf(code)
    const cues = cueScore(code, words, lower)
    // Relatives of the detector's answer get a head start that breaks ties, but only
    // the cues themselves count as evidence for the certainty.
    return { code, cues, score: cues + (rank < 0 ? 0 : 1.5 - rank * 0.5) }
  }).sort((a, b) => b.score - a.score)
  const [best, second] = scored
  const margin = Math.max(0, best.cues - (second?.cues ?? 0))
  const certainty = byScript.length > 0 ? Math.min(0.9, margin / (best.cues + 2)) : 0
  return { language: best.code, scriptKnown: byScript.length > 0, forced: true, certainty }
}
