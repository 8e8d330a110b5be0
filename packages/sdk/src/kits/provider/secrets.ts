// Upstream error messages can echo part of a key ("Incorrect API key provided: sk-ab***yz").
// Everything that leaves the provider layer as text passes through `scrub`.
const KEY_PATTERNS = [
  /\b(sk|rk|pk)-[A-Za-z0-9_*.-]{6,}/g, // OpenAI / Anthropic / OpenRouter style keys, masked or not
  /\bgsk_[A-Za-z0-9_*]{6,}/g, // Groq
  /\bBearer\s+[A-Za-z0-9._~+/*-]+=*/gi,
]

export function scrub (text: string, secrets: Array<string | undefined> = []): string {
  let out = text
  for (const s of secrets) if (s !== undefined && s.length >= 4) out = out.split(s).join('[redacted]')
  for (const p of KEY_PATTERNS) out = out.replace(p, '[redacted]')
  return out
}

/** A URL fit to show: user and password (http://user:pass@host) removed. */
export function safeUrl (url: string | undefined): string | undefined {
  if (url === undefined) return undefined
  try {
    const u = new URL(url)
    if (u.username === '' && u.password === '') return url
    u.username = ''
    u.password = ''
    return u.toString()
  } catch {
    return url
  }
}
