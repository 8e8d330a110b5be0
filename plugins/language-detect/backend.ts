// What a detection backend answers before restriction to the twenty languages. Two
// backends: cld3 (WebAssembly, its model ships inside the npm package: works offline)
// and an optional transformers text classifier that loads on first use.

export interface RawGuess {
  /** The backend's language code: ISO 639-1, sometimes with a variant (`bg-Latn`), `und` when unsure. */
  language: string
  /** The backend's own probability for it, 0-1. */
  probability: number
  /** The backend's reliability flag, where it has one. */
  reliable: boolean
}

export interface DetectionBackend {
  guess: (text: string) => RawGuess | Promise<RawGuess>
  dispose?: () => void | Promise<void>
  /** Thread ids of the worker threads doing the work, for backends that use them. */
  threads?: () => number[]
}
