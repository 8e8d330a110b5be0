// Row -> contract object conversions shared by the SQL stores. Drivers hand back Date
// objects, bigint-ish strings and parsed JSON; the contracts speak ISO strings and numbers.
export const iso = (v: unknown): string => v instanceof Date ? v.toISOString() : String(v)
export const isoOrNull = (v: unknown): string | null => v === null || v === undefined ? null : iso(v)
export const num = (v: unknown): number => typeof v === 'number' ? v : Number(v)
export const obj = (v: unknown): Record<string, unknown> => {
  if (typeof v === 'string') { try { return JSON.parse(v) as Record<string, unknown> } catch { return {} } }
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? v as Record<string, unknown> : {}
}
export const strArr = (v: unknown): string[] => {
  const a = typeof v === 'string' ? (JSON.parse(v) as unknown) : v
  return Array.isArray(a) ? a.map(String) : []
}
export type Row = Record<string, unknown>

/**
 * JSON text for a jsonb parameter. jsonb refuses the escape \u0000 (JSON.stringify writes
 * NUL that way), so it becomes \ufffd; an escaped backslash before "u0000" is left alone.
 */
export const jsonb = (v: unknown): string => JSON.stringify(v ?? null).replace(/(?<!\\)((?:\\\\)*)\\u0000/g, '$1\\ufffd')
