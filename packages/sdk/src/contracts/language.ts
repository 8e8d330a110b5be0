// Language detection (Level I) and translation (Level II) contracts.
// Level I answers one of the twenty languages below as an ISO 639-1 code; Level II
// translates between NLLB-200 codes (`{iso639-3}_{script}`, e.g. `fra_Latn`).

/** The twenty languages Level I detects (SPEC.md), as ISO 639-1 codes; names in the language kit. */
export type DetectionCode = 'ar' | 'bg' | 'de' | 'el' | 'en' | 'es' | 'fr' | 'hi' | 'it' | 'ja' | 'nl' | 'pl' | 'pt' | 'ru' | 'sw' | 'th' | 'tr' | 'ur' | 'vi' | 'zh'

export interface Detection {
  /** ISO 639-1 code, always one of DETECTION_CODES. */
  language: DetectionCode
  /**
   * 0-1: the estimated chance that `language` is right. Short or ambiguous text gets a
   * lower value; an answer forced into the twenty languages gets a much lower one.
   */
  confidence: number
  /** What the backend answered before the answer was restricted to the twenty (e.g. `gl`, `mk`). */
  raw?: string
}

export interface ModelStatus {
  status: 'not_loaded' | 'loading' | 'healthy' | 'error'
  /** Model id or folder this status is about. */
  model?: string
  /** 0-100 while loading (download and load). */
  progress?: number
  /** Why the last load failed, with how to fix it. */
  error?: string
}

export interface Detector {
  readonly id: string
  /** Throws a 4xx error for text with nothing to detect (no letters). */
  detect: (text: string, signal?: AbortSignal) => Promise<Detection>
  status: () => ModelStatus
}

export interface TranslateRequest {
  text: string
  /** NLLB-200 code of the source, e.g. `fra_Latn`. */
  source: string
  /** NLLB-200 code of the target. */
  target: string
}

export interface Translator {
  readonly id: string
  /**
   * Translates the whole text; splitting long text into pieces the model can take is the
   * translator's job. Throws a 503-class error when its model cannot be loaded.
   */
  translate: (req: TranslateRequest, signal?: AbortSignal) => Promise<string>
  status: () => ModelStatus
}

declare module '../kernel/registry.ts' {
  interface Capabilities {
    detectors: Detector
    translators: Translator
  }
}
