// Reading model output: a tolerant JSON reader for models that wrap JSON in prose or code
// fences, and list items from numbered or bulleted reasoning. Reasoning blocks are
// removed first with the think parser, so a `<think>` block never yields the JSON.
import { splitThinking } from './think.ts'

/** Candidate JSON texts in a reply: the whole text, fenced blocks, then the outermost {...} / [...] spans. */
function candidates (text: string): string[] {
  const out = [text.trim()]
  for (const m of text.matchAll(/```(?:json)?\s*([\s\S]*?)```/gi)) out.push(m[1].trim())
  for (const [open, close] of [['{', '}'], ['[', ']']]) {
    const start = text.indexOf(open)
    const end = text.lastIndexOf(close)
    if (start !== -1 && end > start) out.push(text.slice(start, end + 1))
  }
  return out
}

/** The first JSON value found in `text`, or undefined. Accepts fences, prose around it, trailing commas. */
export function parseJsonLoose (text: string): unknown {
  for (const c of candidates(splitThinking(text).answer)) {
    for (const attempt of [c, c.replace(/,\s*([}\]])/g, '$1')]) {
      try { return JSON.parse(attempt) } catch { /* try the next form */ }
    }
  }
  return undefined
}

/** Lines that look like list items ("1. x", "- x", "Step 2: x"), without their markers. */
export function listItems (text: string): string[] {
  return text.split(/\r?\n/)
    .map(l => /^\s*(?:(?:step\s*)?\d+[.):]|[-*•])\s*(.+)$/i.exec(l)?.[1]?.trim())
    .filter((l): l is string => l !== undefined && l !== '')
}
