// The `translation` section of GET /api/health (DECISIONS.md): {status, models:
// {language_detection, translation}}, plus the translation model's load progress while
// loading and the reason after a failed load, and `detection` with the same details for
// the detection model (the classifier backend downloads too, and its progress matters).
import type { Detector, ModelStatus, Translator } from '@agentd/sdk/contracts/language'
import type { HealthContributor, HealthSection } from '@agentd/sdk/contracts/health'

/**
 * The section's status: the translation model's, unless detection is loading or failed. A
 * detector not loaded yet does not hold it back: it loads on its first detection.
 */
function overall (detection: ModelStatus['status'], translation: ModelStatus['status']): ModelStatus['status'] {
  if (detection === 'error' || translation === 'error') return 'error'
  if (detection === 'loading' || translation === 'loading') return 'loading'
  return translation
}

export function translationHealth (translator: Translator, detector: () => Detector | undefined, backend: string): HealthContributor {
  return {
    section: 'translation',
    check: async (): Promise<HealthSection> => {
      const det = detector()?.status() ?? { status: 'not_loaded' as const }
      const tr = translator.status()
      const section: HealthSection = {
        status: overall(det.status, tr.status),
        models: { language_detection: det.status, translation: tr.status },
        backend,
      }
      if (tr.model !== undefined) section.model = tr.model
      if (tr.progress !== undefined) section.progress = tr.progress
      section.detection = { ...det }
      const errors = [det.error, tr.error].filter((e): e is string => e !== undefined)
      if (errors.length > 0) section.error = errors.join(' ')
      return section
    },
  }
}
