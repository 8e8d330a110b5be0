// Tool names offered to the model must be unique and fit what providers accept
// (OpenAI: ^[a-zA-Z0-9_-]{1,64}$). A name only one server offers stays as is; when two
// servers offer the same name, each is qualified as `<server>__<tool>`.
import { createHash } from 'node:crypto'

export const MAX_TOOL_NAME = 64
export const QUALIFIER = '__'

export function sanitizeToolName (name: string): string {
  const clean = name.replace(/[^A-Za-z0-9_-]/g, '_') || 'tool'
  if (clean.length <= MAX_TOOL_NAME) return clean
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 8)
  return `${clean.slice(0, MAX_TOOL_NAME - 9)}_${hash}`
}

export interface NamedTool { server: string, tool: string }

/** Gives each (server, tool) its model-facing name; on a remaining collision the later one gets a numeric suffix. */
export function assignToolNames<T extends NamedTool> (tools: T[]): Array<T & { name: string }> {
  const counts = new Map<string, number>()
  for (const t of tools) { const n = sanitizeToolName(t.tool); counts.set(n, (counts.get(n) ?? 0) + 1) }
  const firstPass = tools.map(t => {
    const plain = sanitizeToolName(t.tool)
    return { t, want: counts.get(plain) === 1 ? plain : sanitizeToolName(`${t.server}${QUALIFIER}${t.tool}`) }
  })
  const taken = new Set<string>()
  return firstPass.map(({ t, want }) => {
    let name = want
    // A qualified name that collides with another tool's plain name gets a numeric suffix.
    for (let i = 2; taken.has(name); i++) name = sanitizeToolName(`${want}_${i}`)
    taken.add(name)
    return { ...t, name }
  })
}
