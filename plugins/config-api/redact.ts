// Secrets never leave through a read endpoint: every value under a secret-looking key
// becomes { set: true|false }.
const SECRET_KEY = /(^|_)(api_key|apikey|key|token|secret|password|passwd|authorization|headers|env)$/i

export function isSecretKey (key: string): boolean { return SECRET_KEY.test(key) }

export function redact (value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact)
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (isSecretKey(k) && !(v !== null && typeof v === 'object' && 'set' in v)) out[k] = { set: v !== undefined && v !== null && v !== '' }
    else out[k] = redact(v)
  }
  return out
}
