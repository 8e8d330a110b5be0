// The builtin tool source: a few tools that need nothing outside the process.
import type { ToolInfo, ToolResult, ToolSource } from '@agentd/sdk/contracts/tool-source'
import { evaluate, MAX_EXPRESSION_LENGTH } from './arithmetic.ts'
import { currentTime } from './time.ts'
import type { BuiltinToolsOptions } from './options.ts'

interface BuiltinTool {
  info: Omit<ToolInfo, 'server'>
  run: (args: Record<string, unknown>) => unknown
}

export function createBuiltinSource (id: string, opts: BuiltinToolsOptions): ToolSource {
  const all: Record<string, BuiltinTool> = {
    current_time: {
      info: {
        name: 'current_time',
        description: 'The current date and time in an IANA time zone (e.g. "Europe/Paris"), with weekday and UTC offset.',
        input_schema: { type: 'object', properties: { timezone: { type: 'string', description: `IANA time zone; default ${opts.default_timezone}` } }, additionalProperties: false },
      },
      run: (args) => currentTime(typeof args.timezone === 'string' && args.timezone !== '' ? args.timezone : opts.default_timezone),
    },
    calculate: {
      info: {
        name: 'calculate',
        description: 'Evaluates an arithmetic expression exactly as written: + - * / % ^, parentheses, sqrt, abs, round, floor, ceil, ln, log, exp, sin, cos, tan, min, max, pi, e.',
        input_schema: { type: 'object', properties: { expression: { type: 'string', maxLength: MAX_EXPRESSION_LENGTH } }, required: ['expression'], additionalProperties: false },
      },
      run: (args) => {
        if (typeof args.expression !== 'string') throw new Error('"expression" must be a string, e.g. "2 * (3 + 4)"')
        return { expression: args.expression, result: evaluate(args.expression) }
      },
    },
  }
  const enabled = Object.fromEntries(Object.entries(all).filter(([name]) => opts.tools.includes(name as 'calculate')))

  return {
    id,
    listTools: () => Object.values(enabled).map(t => ({ ...t.info, server: id, status: 'available' })),
    callTool: async (name, args): Promise<ToolResult> => {
      const tool = enabled[name]
      if (tool === undefined) return { content: `Unknown tool "${name}". Available: ${Object.keys(enabled).join(', ')}.`, isError: true }
      try {
        return { content: JSON.stringify(tool.run(args)), isError: false }
      } catch (err) {
        return { content: `${name} failed: ${(err as Error).message}`, isError: true }
      }
    },
    toolsPrompt: () => Object.values(enabled).map(t => `- ${t.info.name}: ${t.info.description}`).join('\n'),
  }
}
