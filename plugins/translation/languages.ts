// The NLLB-200 language codes (nllb-languages.json, 202 entries) and the lexicon from the
// twenty detection codes to them.
import { readFileSync } from 'node:fs'
import type { DetectionCode } from '@agentd/sdk/contracts/language'

export interface NllbLanguage { code: string, name: string }

const CODE = /^[a-z]{3}_[A-Z][a-z]{3}$/

function load (): readonly NllbLanguage[] {
  const file = new URL('./nllb-languages.json', import.meta.url)
  const data = JSON.parse(readFileSync(file, 'utf8')) as { languages?: unknown }
  if (!Array.isArray(data.languages)) throw new Error(`${file.pathname} has no "languages" list`)
  for (const l of data.languages as NllbLanguage[]) {
    if (typeof l?.code !== 'string' || !CODE.test(l.code) || typeof l.name !== 'string') throw new Error(`${file.pathname}: bad entry ${JSON.stringify(l)}`)
  }
  return Object.freeze(data.languages as NllbLanguage[])
}

export const NLLB_LANGUAGES = load()
const BY_CODE = new Map(NLLB_LANGUAGES.map(l => [l.code, l.name]))

export const nllbName = (code: string): string | undefined => BY_CODE.get(code)
export const isNllbCode = (code: string): boolean => BY_CODE.has(code)

/** Level I -> Level II: each detected language to the NLLB code of its standard written form. */
export const LEXICON: Readonly<Record<DetectionCode, string>> = Object.freeze({
  ar: 'arb_Arab', bg: 'bul_Cyrl', de: 'deu_Latn', el: 'ell_Grek', en: 'eng_Latn',
  es: 'spa_Latn', fr: 'fra_Latn', hi: 'hin_Deva', it: 'ita_Latn', ja: 'jpn_Jpan',
  nl: 'nld_Latn', pl: 'pol_Latn', pt: 'por_Latn', ru: 'rus_Cyrl', sw: 'swh_Latn',
  th: 'tha_Thai', tr: 'tur_Latn', ur: 'urd_Arab', vi: 'vie_Latn', zh: 'zho_Hans',
})

// Frequent characters that differ between the two Chinese scripts (pairs in order).
const TRADITIONAL = '們這個來說時會對國學與為於體發經動還後現點開關麼權務義'
const SIMPLIFIED = '们这个来说时会对国学与为于体发经动还后现点开关么权务义'

/**
 * The lexicon step: a detected language (ISO 639-1) to the NLLB code of the text's source.
 * Chinese goes to Traditional (zho_Hant) when the text writes more traditional forms than
 * simplified ones; everything else maps one to one.
 */
export function nllbFor (code: DetectionCode, text: string): string {
  if (code !== 'zh') return LEXICON[code]
  let trad = 0
  let simp = 0
  for (const ch of text) {
    if (TRADITIONAL.includes(ch)) trad++
    else if (SIMPLIFIED.includes(ch)) simp++
  }
  return trad > simp ? 'zho_Hant' : 'zho_Hans'
}

/** For an error message: `fr` -> "fra_Latn", when someone sends an ISO 639-1 code. */
export function suggestion (code: string): string | undefined {
  return (LEXICON as Record<string, string | undefined>)[code.toLowerCase()]
}

/** Scripts written without spaces between words: translated pieces join with no space. */
const UNSPACED = new Set(['Jpan', 'Hans', 'Hant', 'Thai', 'Laoo', 'Khmr', 'Mymr', 'Tibt'])
export const joinerFor = (code: string): string => UNSPACED.has(code.slice(4)) ? '' : ' '
