// The boundaries docs/architecture.md promises, checked on every run: a plugin meets the
// kernel and other plugins only through the SDK and the registry, and the kernel imports
// no capability. (The idea of shared/tools/import-audit.mjs, kept in the project.)
import t from 'tap'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { REPO } from '../helpers/workspace.ts'

const SPEC = /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm

function files (dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap(e => {
    const full = path.join(dir, e.name)
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'dist' ? [] : files(full)
    return /\.(?:ts|mts|js|mjs)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [full] : []
  })
}

/** Relative imports of a file, resolved to repository paths. */
function relativeImports (file: string): string[] {
  const text = readFileSync(file, 'utf8')
  return [...text.matchAll(SPEC)].map(m => m[1] ?? m[2]).filter(s => s.startsWith('.')).map(s => path.relative(REPO, path.resolve(path.dirname(file), s)))
}

const CAPABILITY = /(provider|memory|strategy|embedder|language|tool-source|translat|detect|mcp|recall|neo4j|redis|postgres|prompt|chat|model)/i
const pluginOf = (rel: string): string | undefined => rel.startsWith(`plugins${path.sep}`) ? rel.split(path.sep)[1] : undefined
const isTest = (rel: string): boolean => rel.endsWith('.test.ts')

t.test('no plugin file imports core/ or another plugin\'s files', async t => {
  const bad: string[] = []
  for (const f of files(path.join(REPO, 'plugins'))) {
    const rel = path.relative(REPO, f)
    if (isTest(rel)) continue
    for (const target of relativeImports(f)) {
      const other = pluginOf(target)
      if (target.startsWith(`core${path.sep}`) || (other !== undefined && other !== pluginOf(rel))) bad.push(`${rel} -> ${target}`)
    }
  }
  t.same(bad, [], 'use @agentd/sdk (kernel API, contracts, kits) or a registry service instead')
})

t.test('the SDK imports neither core/ nor plugins/', async t => {
  const bad = files(path.join(REPO, 'packages', 'sdk', 'src')).flatMap(f => relativeImports(f).filter(x => x.startsWith(`core${path.sep}`) || x.startsWith(`plugins${path.sep}`)).map(x => `${path.relative(REPO, f)} -> ${x}`))
  t.same(bad, [])
})

t.test('the kernel imports no plugin and no capability contract', async t => {
  const bad = files(path.join(REPO, 'core')).filter(f => !isTest(f)).flatMap(f => {
    const text = readFileSync(f, 'utf8')
    const specs = [...text.matchAll(SPEC)].map(m => m[1] ?? m[2])
    // The kernel's own contracts (health, jobs of the registry) are not capabilities.
    return specs.filter(s => s.includes('plugins/') || /@agentd\/sdk\/kits/.test(s) || (/@agentd\/sdk\/contracts/.test(s) && CAPABILITY.test(s))).map(s => `${path.relative(REPO, f)} -> ${s}`)
  })
  t.same(bad, [])
})

t.test('the checker sees an import when there is one (it can fail)', async t => {
  const sample = relativeImports(path.join(REPO, 'core', 'kernel.ts'))
  t.ok(sample.some(s => s === path.join('core', 'config.ts')), 'core/kernel.ts -> core/config.ts found')
})
