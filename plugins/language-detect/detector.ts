// The Level I detector: backend guess -> restricted to the twenty -> calibrated confidence.
import type { Detection, Detector } from '@agentd/sdk/contracts/language'
import type { DetectionBackend } from './backend.ts'
import { calibrate } from './confidence.ts'
import { DetectErrors } from './errors.ts'
import type { LazyModel } from '@agentd/sdk/kits/models'
import { restrict } from './restrict.ts'
import { scriptStats } from './script.ts'

const UNIQUE_SCRIPTS = new Set(['Greek', 'Thai', 'Kana', 'Devanagari'])

/** Detection on an already loaded backend (what the routes and the bench call). */
export async function detectWith (backend: DetectionBackend, text: string): Promise<Detection> {
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
