// Which writing systems a text uses. The script narrows the twenty languages to a few
// (Greek -> el, Thai -> th, kana -> ja, Cyrillic -> ru or bg, ...), which is how an
// answer outside the twenty is mapped back inside them.

export type Script = 'Latin' | 'Cyrillic' | 'Greek' | 'Arabic' | 'Devanagari' | 'Thai' | 'Han' | 'Kana' | 'Hangul' | 'Other'

const PATTERNS: Array<[Script, RegExp]> = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Arabic', /\p{Script=Arabic}/u],
  ['Devanagari', /\p{Script=Devanagari}/u],
  ['Thai', /\p{Script=Thai}/u],
  ['Han', /\p{Script=Han}/u],
  ['Kana', /[\p{Script=Hiragana}\p{Script=Katakana}]/u],
  ['Hangul', /\p{Script=Hangul}/u],
]

const LETTER = /\p{L}/u

export interface ScriptStats {
  /** Letters counted (combining marks excluded). */
  letters: number
  counts: Partial<Record<Script, number>>
  /** The script with most letters; kana wins over Han when present (Japanese mixes both). */
  dominant: Script | undefined
  /** Letters weighted by how much each says: a Han or kana character carries about as much as a short word. */
  weight: number
}

const WEIGHT: Partial<Record<Script, number>> = { Han: 2.5, Kana: 1.5, Hangul: 2 }

export function scriptStats (text: string): ScriptStats {
  const counts: Partial<Record<Script, number>> = {}
  let letters = 0
  let weight = 0
  for (const ch of text) {
    if (!LETTER.test(ch)) continue
    letters++
    let script: Script = 'Other'
    for (const [name, re] of PATTERNS) if (re.test(ch)) { script = name; break }
    counts[script] = (counts[script] ?? 0) + 1
    weight += WEIGHT[script] ?? 1
  }
  let dominant: Script | undefined
  let best = 0
  for (const [s, n] of Object.entries(counts) as Array<[Script, number]>) if (n > best) { best = n; dominant = s }
  if (dominant === 'Han' && (counts.Kana ?? 0) > 0) dominant = 'Kana'
  return { letters, counts, dominant, weight }
}
