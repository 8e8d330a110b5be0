// The "tool-server tools prompt": a plain-text list of the tools from tool servers, for
// the system prompt (SPEC.md composition order: global prompt, this, profile sections).
import type { ToolView } from './manager.ts'

const MAX_DESCRIPTION = 300

function clip (text: string, max: number): string {
  const one = text.replace(/\s+/g, ' ').trim()
  return one.length > max ? `${one.slice(0, max - 1)}…` : one
}

function describeArgs (schema: Record<string, unknown>): string[] {
  const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>
  const required = new Set(Array.isArray(schema.required) ? schema.required as string[] : [])
  return Object.entries(props).map(([name, p]) => {
    const type = typeof p.type === 'string' ? p.type : Array.isArray(p.type) ? (p.type as string[]).join('|') : 'any'
    const desc = typeof p.description === 'string' ? `: ${clip(p.description, 160)}` : ''
    return `    - ${name} (${type}${required.has(name) ? ', required' : ''})${desc}`
  })
}

/** Empty when there is no tool: nothing is added to the system prompt then. */
export function renderToolsPrompt (views: ToolView[]): string {
  const usable = views.filter(v => v.status === 'available')
  if (usable.length === 0) return ''
  // Lines only, like every tool source's prompt: the prompts plugin puts its own heading above them.
  const lines: string[] = []
  for (const v of usable) {
    const desc = v.tool.description === undefined || v.tool.description === '' ? '' : `: ${clip(v.tool.description, MAX_DESCRIPTION)}`
    lines.push(`- ${v.name} (server "${v.server}")${desc}`)
    lines.push(...describeArgs(v.tool.inputSchema as Record<string, unknown>))
  }
  return lines.join('\n')
}
