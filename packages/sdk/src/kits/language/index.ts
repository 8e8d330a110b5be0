// The language kit: the values behind the detector and translator contracts.
import type { DetectionCode } from '../../contracts/language.ts'

/** The twenty languages Level I detects (SPEC.md), ISO 639-1 code -> English name. */
export const DETECTION_LANGUAGES: Readonly<Record<DetectionCode, string>> = Object.freeze({
  ar: 'Arabic',
  bg: 'Bulgarian',
  de: 'German',
  el: 'Greek',
  en: 'English',
  es: 'Spanish',
  fr: 'French',
  hi: 'Hindi',
  it: 'Italian',
  ja: 'Japanese',
  nl: 'Dutch',
  pl: 'Polish',
  pt: 'Portuguese',
  ru: 'Russian',
  sw: 'Swahili',
  th: 'Thai',
  tr: 'Turkish',
  ur: 'Urdu',
  vi: 'Vietnamese',
  zh: 'Chinese',
})

export const DETECTION_CODES = Object.freeze(Object.keys(DETECTION_LANGUAGES) as DetectionCode[])

export function isDetectionCode (code: string): code is DetectionCode {
  return Object.hasOwn(DETECTION_LANGUAGES, code)
}

/** A detection confidence (0-1) as the API shows it: percent, two decimals. One rule for every endpoint. */
export const confidencePercent = (fraction: number): number => Math.round(fraction * 10_000) / 100
