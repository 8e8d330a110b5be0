// Splits text that is longer than a model's window into pieces at sentence boundaries
// (Intl.Segmenter, which knows CJK and Thai sentence ends), packs sentences into pieces
// up to a budget, and puts the translated pieces back with the original line breaks.

export interface Split {
  /** The pieces to translate, in order. */
  pieces: string[]
  /** Rebuilds the text from the translated pieces (same order and count). */
  join: (translated: string[]) => string
}

type Part = { sep: string } | { piece: number }

const CLAUSE = /(?<=[,;:，；：、،])\s*/u

/** Cuts one over-long sentence: at clause marks, then between words, then anywhere. */
function cutLong (sentence: string, max: number, measure: (s: string) => number): string[] {
  for (const splitter of [CLAUSE, /(?<=\s)/u]) {
    const parts = sentence.split(splitter).filter(p => p !== '')
    if (parts.length > 1) return pack(parts, max, measure, (s) => cutLong(s, max, measure))
  }
  // No boundary at all (a very long word or an unspaced script): cut by characters.
  const chars = [...sentence]
  const out: string[] = []
  let cur = ''
  for (const ch of chars) {
    if (cur !== '' && measure(cur + ch) > max) { out.push(cur); cur = '' }
    cur += ch
  }
  if (cur !== '') out.push(cur)
  return out
}

/** Greedily packs consecutive parts into pieces within `max`; an over-long part goes to `tooLong`. */
function pack (parts: string[], max: number, measure: (s: string) => number, tooLong: (s: string) => string[]): string[] {
  const out: string[] = []
  let cur = ''
  for (const part of parts) {
    if (measure(part) > max) {
      if (cur.trim() !== '') out.push(cur)
      cur = ''
      out.push(...tooLong(part))
      continue
    }
    if (cur !== '' && measure(cur + part) > max) { out.push(cur); cur = '' }
    cur += part
  }
  if (cur.trim() !== '') out.push(cur)
  return out.map(p => p.trim()).filter(p => p !== '')
}

/**
 * `max` is in the units of `measure` (characters by default; model tokens when the model
 * can count them). Line breaks are hard boundaries and come back exactly as they were;
 * pieces of one paragraph are joined with `joiner` (a space, or nothing for scripts
 * written without spaces).
 */
export function splitText (text: string, max: number, opts: { measure?: (s: string) => number, locale?: string, joiner?: string } = {}): Split {
  const measure = opts.measure ?? ((s: string) => s.length)
  const joiner = opts.joiner ?? ' '
  const segmenter = new Intl.Segmenter(opts.locale, { granularity: 'sentence' })
  const pieces: string[] = []
  const parts: Part[] = []
  // Split on line breaks, keeping them (odd indexes are the separators).
  const lines = text.split(/(\s*\n\s*)/u)
  lines.forEach((line, i) => {
    if (i % 2 === 1) { parts.push({ sep: line }); return }
    const lead = /^\s*/u.exec(line)?.[0] ?? ''
    const trail = /\s*$/u.exec(line)?.[0] ?? ''
    if (line.trim() === '') { if (line !== '') parts.push({ sep: line }); return }
    if (lead !== '') parts.push({ sep: lead })
    const sentences = [...segmenter.segment(line.trim())].map(s => s.segment)
    const packed = pack(sentences, max, measure, (s) => cutLong(s, max, measure))
    packed.forEach((p, k) => {
      if (k > 0) parts.push({ sep: joiner })
      parts.push({ piece: pieces.length })
      pieces.push(p)
    })
    if (trail !== '') parts.push({ sep: trail })
  })
  return {
    pieces,
    join: (translated) => {
      if (translated.length !== pieces.length) throw new Error(`expected ${pieces.length} translated pieces, got ${translated.length}`)
      return parts.map(p => 'sep' in p ? p.sep : translated[p.piece].trim()).join('')
    },
  }
}
