// The optional second backend: a transformers.js text classifier whose labels are the
// twenty ISO 639-1 codes (SPEC.md's ~50 MB detection model). Loaded on first use.
import type { DetectionBackend } from './backend.ts'
import { loadHubPipeline, type HubSource, type PipelineFn, type LoadProgress } from '@agentd/sdk/kits/models'

interface Label { label: string, score: number }

export function classifierBackend (classify: PipelineFn): DetectionBackend {
  return {
    guess: async (text) => {
      const out = await classify(text, { top_k: 1 }) as Label[] | Label[][]
      const first = Array.isArray(out[0]) ? (out[0] as Label[])[0] : out[0] as Label
      if (first === undefined) return { language: 'und', probability: 0, reliable: false }
      // Labels are codes (`en`) in the models meant here; some exports say `en-US` or `EN`.
      return { language: first.label.toLowerCase().split(/[-_]/)[0], probability: first.score, reliable: first.score >= 0.7 }
    },
    dispose: async () => { await classify.dispose?.() },
  }
}

export async function loadClassifier (src: HubSource, onProgress: (p: LoadProgress) => void): Promise<DetectionBackend> {
  return classifierBackend(await loadHubPipeline('text-classification', src, onProgress))
}
