// @huggingface/transformers is an optional dependency (~300 MB with onnxruntime): only the
// plugins that run a local model import it, on their first load. Missing, the import
// fails with a message naming the package and how to add it, not a bare resolver error.

export class TransformersMissingError extends Error {
  constructor (cause: unknown) {
    super('The optional package @huggingface/transformers is not installed, and this plugin runs a local model with it. ' +
      'Install it (npm install @huggingface/transformers; `npm ci --omit=optional` leaves it out), or use a backend that needs no local model.', { cause })
    this.name = 'TransformersMissingError'
  }
}

function isMissing (err: unknown, specifier: string): boolean {
  const e = err as NodeJS.ErrnoException | undefined
  return (e?.code === 'ERR_MODULE_NOT_FOUND' || e?.code === 'MODULE_NOT_FOUND') && typeof e.message === 'string' && e.message.includes(specifier)
}

/**
 * Imports a package that may be absent, naming it in the error when it is. The specifier
 * is a parameter so tests can ask for one that is not installed.
 */
export async function importOptional<T> (specifier: string, missing: (cause: unknown) => Error): Promise<T> {
  try {
    return await import(specifier) as T
  } catch (err) {
    throw isMissing(err, specifier) ? missing(err) : err
  }
}

/** `import('@huggingface/transformers')`, with a clear error when it is not installed. */
export async function importTransformers<T> (): Promise<T> {
  return await importOptional<T>('@huggingface/transformers', cause => new TransformersMissingError(cause))
}
