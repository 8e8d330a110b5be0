// Language detection (Level I) and translation (Level II) contracts.

export interface Detection {
  /** ISO 639-1 code, one of the 20 supported languages. */
  language: string
  /** 0-1. */
  confidence: number
}

export interface Detector {
  readonly id: string
  detect: (text: string, signal?: AbortSignal) => Promise<Detection>
  status: () => ModelStatus
}

export interface ModelStatus {
  status: 'not_loaded' | 'loading' | 'healthy' | 'error'
  progress?: number
  error?: string
}

export interface TranslateRequest {
  text: string
  /** NLLB-200 code, e.g. `fra_Latn`. */
  source: string
  target: string
}

export interface Translator {
  readonly id: string
  translate: (req: TranslateRequest, signal?: AbortSignal) => Promise<string>
  status: () => ModelStatus
}
