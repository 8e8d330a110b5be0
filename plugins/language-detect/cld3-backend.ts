// cld3 (Google's Compact Language Detector 3) compiled to WebAssembly by cld3-asm. Its
// model is inside the package, so this backend works with no download.
import type { DetectionBackend } from './backend.ts'

/** cld3 reads at most this many bytes of a text; more does not change its answer much. */
export const MAX_BYTES = 1024
/**
 * 0: cld3's default (140) answers `und` for anything shorter, and short text is exactly
 * where callers need an answer with an honest, low confidence.
 */
export const MIN_BYTES = 0

export async function loadCld3 (): Promise<DetectionBackend> {
  // Imported at the first detection in this thread, not at every start (the pool's workers load their own).
  const { loadModule } = await import('cld3-asm')
  const factory = await loadModule()
  const identifier = factory.create(MIN_BYTES, MAX_BYTES)
  return {
    guess: (text) => {
      const r = identifier.findLanguage(text)
      return { language: String(r.language), probability: r.probability, reliable: r.is_reliable }
    },
    dispose: () => { identifier.dispose() },
  }
}
