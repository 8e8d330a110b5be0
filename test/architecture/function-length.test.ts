// Functions stay short enough to read in one screen: none in plugins/ or packages/ is
// longer than MAX_LINES (docs/architecture.md, "Style"). A route table that grows past it
// splits into groups; a long flow becomes a class or named steps.
import t from 'tap'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { parse } from '@babel/parser'
import { REPO } from '../helpers/workspace.ts'

const MAX_LINES = 80
const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression', 'ClassMethod', 'ClassPrivateMethod', 'ObjectMethod'])

interface Node { type?: string, loc?: { start: { line: number }, end: { line: number } }, id?: { name?: string }, key?: { name?: string } }

function sources (dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap(e => {
    const full = path.join(dir, e.name)
    if (e.isDirectory()) return ['node_modules', 'dist', 'public'].includes(e.name) ? [] : sources(full)
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !e.name.endsWith('.d.ts') ? [full] : []
  })
}

/** `file:line name (n lines)` for every function longer than `max`. */
export function longFunctions (file: string, text: string, max: number): string[] {
  const long: string[] = []
  const visit = (n: unknown): void => {
    if (n === null || typeof n !== 'object') return
    if (Array.isArray(n)) { for (const c of n) visit(c); return }
    const node = n as Node & Record<string, unknown>
    if (node.type !== undefined && FUNCTIONS.has(node.type) && node.loc !== undefined) {
      const lines = node.loc.end.line - node.loc.start.line + 1
      if (lines > max) long.push(`${file}:${node.loc.start.line} ${node.id?.name ?? node.key?.name ?? '(anonymous)'} (${lines} lines)`)
    }
    for (const [k, v] of Object.entries(node)) if (k !== 'loc' && typeof v === 'object') visit(v)
  }
  visit(parse(text, { sourceType: 'module', plugins: ['typescript'] }).program)
  return long
}

t.test(`no function in plugins/ or packages/ is longer than ${MAX_LINES} lines`, async t => {
  const files = [...sources(path.join(REPO, 'plugins')), ...sources(path.join(REPO, 'packages'))]
  const long = files.flatMap(f => longFunctions(path.relative(REPO, f), readFileSync(f, 'utf8'), MAX_LINES))
  t.same(long, [])
})

t.test('the check finds a long function when there is one (it can fail)', async t => {
  const body = Array.from({ length: MAX_LINES + 1 }, (_, i) => `  const x${i} = ${i}`).join('\n')
  t.same(longFunctions('sample.ts', `export function big (): void {\n${body}\n}\nconst small = (): number => 1\n`, MAX_LINES), [`sample.ts:1 big (${MAX_LINES + 3} lines)`])
})
