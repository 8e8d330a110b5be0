// Secret values (resolved env and header values, values substituted into a url) must
// never reach a log line or a response: every text that came from a server, a child's
// stderr or an error message passes through here first.

/** Values shorter than this are not treated as secrets: "1" or "on" would blank out ordinary text. */
export const MIN_SECRET_LENGTH = 4

export type Redactor = (text: string) => string

export function makeRedactor (secrets: readonly string[]): Redactor {
  const list = [...new Set(secrets.filter(s => s.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length)
  if (list.length === 0) return text => text
  return text => {
    let out = text
    for (const s of list) {
      if (out.includes(s)) out = out.split(s).join('[redacted]')
      const enc = encodeURIComponent(s)
      if (enc !== s && out.includes(enc)) out = out.split(enc).join('[redacted]')
    }
    return out
  }
}

/**
 * Redacts every string inside a JSON-like value (a listed tool, resource or prompt: its
 * description, title, URI, schema texts...), returning a copy. A server may well describe
 * itself with what it was configured with; that must not reach /api/mcp/* or the model.
 */
export function redactDeep<T> (value: T, redact: Redactor): T {
  if (typeof value === 'string') return redact(value) as T
  if (Array.isArray(value)) return value.map(v => redactDeep(v, redact)) as T
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactDeep(v, redact)])) as T
  }
  return value
}
