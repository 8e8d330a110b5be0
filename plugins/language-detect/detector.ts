// The Level I detector: backend guess -> restricted to the twenty -> calibrated confidence.
import type { Detection, Detector } from '@agentd/sdk/contracts/language'
import type { DetectionBackend } from './backend.ts'
import { calibrate } from './confidence.ts'
import { DetectErrors } from './errors.ts'
import type { LazyModel } from '@agentd/sdk/kits/models'
import { restrict } from './restrict.ts'
import { scriptStats } from './script.ts'

const UNIQUE_SCRIPTS = new Set(['Greek', 'Thai', 'Kana', 'Devanagari'])

/**
 * How much of a text detection reads. cld3 reads its first 1,024 bytes and the
 * confidence's length discount is gone after ~100 letters, so more says nothing new; but
 * the script count and the cues run in the request thread, and over 100,000 characters
 * they took 30-100 ms a text: a burst of long texts held every other request (health too)
 * for seconds.
 */
export const SAMPLE_CHARS = 4096

/** The text's first SAMPLE_CHARS characters, cut at a space when there is one near the end (never inside a word or a surrogate pair). */
export function sampleOf (text: string): string {
  if (text.length <= SAMPLE_CHARS) return text
  const space = text.lastIndexOf(' ', SAMPLE_CHARS)
  if (space > SAMPLE_CHARS / 2) return text.slice(0, space)
  const end = /[\uD800-\uDBFF]/.test(text[SAMPLE_CHARS - 1]) ? SAMPLE_CHARS - 1 : SAMPLE_CHARS
  return text.slice(0, end)
}

/** Detection on an already loaded backend (what the routes and the bench call). */
export async function detectWith (backend: DetectionBackend, whole: string): Promise<Detection> {
  const text = sampleOf(whole)
  const stats = scriptStats(text)
  if (stats.letters === 0) throw new DetectErrors.NO_LETTERS()
  const guess = await backend.guess(text)
  const restricted = restrict(text, guess.language, stats)
  const confidence = calibrate({
    probability: guess.probability,
    reliable: guess.reliable,
    weight: stats.weight,
    restricted,
    scriptDecides: stats.dominant !== undefined && UNIQUE_SCRIPTS.has(stats.dominant),
  })
  return { language: restricted.language, confidence, raw: guess.language }
}

/** The detector this plugin registers: the core contract plus where detection runs. */
export interface LanguageDetector extends Detector {
  /** Thread ids of the worker threads that detect; empty when detection runs in the request thread (or nothing is loaded yet). */
  threads: () => number[]
}

export function createDetector (id: string, model: LazyModel<DetectionBackend>): LanguageDetector {
  return {
    id,
    status: () => model.status(),
    threads: () => model.current?.threads?.() ?? [],
    detect: async (text) => await detectWith(await model.get(), text),
  }
}
