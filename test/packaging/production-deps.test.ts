// `npm ci --omit=dev && npm start` works: everything the install's build (`prepare`) and
// the server load at run time is a dependency, not a devDependency. Checked statically here
// (the real install takes minutes: scripts/omit-dev-check.mjs, run by .ci/run, reported by
// omit-dev-start.test.ts): every package the build scripts and the
// compiled sources import, and the build's compiler, its bundler and the type packages the
// compiler needs (tsconfig `types`, and @types/x for an imported package without types).
import t from 'tap'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import path from 'node:path'
import { REPO } from '../helpers/workspace.ts'

interface Pkg { dependencies?: Record<string, string>, optionalDependencies?: Record<string, string>, devDependencies?: Record<string, string>, types?: string, typings?: string, exports?: unknown }
const readPkg = (file: string): Pkg => JSON.parse(readFileSync(file, 'utf8')) as Pkg
const root = readPkg(path.join(REPO, 'package.json'))
const sdk = readPkg(path.join(REPO, 'packages', 'sdk', 'package.json'))
/** What `npm ci --omit=dev` installs for the root (the SDK is a workspace; its dependencies come with it). */
const production = new Set([...Object.keys(root.dependencies ?? {}), ...Object.keys(root.optionalDependencies ?? {}), ...Object.keys(sdk.dependencies ?? {})])

// The build's own rule for what it compiles (scripts/build.mjs).
const SOURCES = ['core', 'plugins', 'packages/sdk/src']
const SKIP = /(\.test\.ts$|\/fixtures\/|\/test-fixtures\/|test-support\.ts$)/
const BUILD_SCRIPTS = ['scripts/build.mjs', 'scripts/prepared-seed.mjs', 'scripts/unshadow-node.mjs']

function * files (dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name)
    if (e.isDirectory()) { if (e.name !== 'node_modules' && e.name !== 'dist') yield * files(p) } else if (/\.(ts|mjs|js)$/.test(e.name) && !SKIP.test(p)) yield p
  }
}

const packageOf = (spec: string): string => spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]
const isBuiltin = (spec: string): boolean => spec.startsWith('node:') || builtinModules.includes(spec.split('/')[0])

/** Bare specifiers a file imports, value imports and type-only ones apart. */
function importsOf (text: string): { value: Set<string>, types: Set<string> } {
  const value = new Set<string>()
  const types = new Set<string>()
  for (const m of text.matchAll(/^\s*(import|export)\s+(type\s+)?[^'"]*?from\s+['"]([^'"]+)['"]/gm)) (m[2] !== undefined ? types : value).add(m[3])
  for (const m of text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) value.add(m[1])
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) value.add(m[1])
  for (const m of text.matchAll(/typeof import\(\s*['"]([^'"]+)['"]\s*\)/g)) types.add(m[1])
  const bare = (s: Set<string>): Set<string> => new Set([...s].filter(x => !x.startsWith('.') && !x.startsWith('/') && !isBuiltin(x) && !x.startsWith('data:')).map(packageOf))
  return { value: bare(value), types: bare(types) }
}

function scan (): { value: Map<string, string>, types: Map<string, string> } {
  const value = new Map<string, string>()
  const types = new Map<string, string>()
  const all = [...SOURCES.flatMap(d => [...files(path.join(REPO, d))]), ...BUILD_SCRIPTS.map(f => path.join(REPO, f))]
  for (const f of all) {
    const found = importsOf(readFileSync(f, 'utf8'))
    for (const p of found.value) if (!value.has(p)) value.set(p, path.relative(REPO, f))
    for (const p of found.types) if (!types.has(p)) types.set(p, path.relative(REPO, f))
  }
  value.delete('@agentd/sdk')
  types.delete('@agentd/sdk')
  return { value, types }
}

t.test('the scan sees the imports it is meant to see', async t => {
  const { value, types } = scan()
  for (const p of ['fastify', 'esbuild', '@electric-sql/pglite', '@huggingface/transformers']) t.ok(value.has(p), `${p} (value)`)
  t.ok(types.has('pino'), 'pino (type only, in core/kernel.ts)')
})

t.test('every package the build and the server import is installed without dev dependencies', async t => {
  const { value } = scan()
  t.same([...value].filter(([p]) => !production.has(p)).map(([p, f]) => `${p} (${f})`), [])
})

t.test('no compiled source imports a file outside the compiled folders (a test helper would take its dev dependencies into the build)', async t => {
  const outside: string[] = []
  for (const f of SOURCES.flatMap(d => [...files(path.join(REPO, d))])) {
    for (const m of readFileSync(f, 'utf8').matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]/gm)) {
      const target = path.relative(REPO, path.resolve(path.dirname(f), m[1]))
      if (!SOURCES.some(d => target.startsWith(d + path.sep)) || SKIP.test(target)) outside.push(`${path.relative(REPO, f)} -> ${target}`)
    }
  }
  t.same(outside, [])
})

t.test('the build\'s compiler finds every type it checks without dev dependencies', async t => {
  // scripts/build.mjs runs typescript's compiler over the sources: the compiler and the type
  // packages it loads must be installed too.
  const tsconfig = JSON.parse(readFileSync(path.join(REPO, 'tsconfig.json'), 'utf8')) as { compilerOptions: { types?: string[] } }
  const needed = new Map<string, string>([['typescript', 'scripts/build.mjs'], ['esbuild', 'scripts/build.mjs'], ...(tsconfig.compilerOptions.types ?? []).map(x => [`@types/${x}`, 'tsconfig.json'] as [string, string])])
  const { value, types } = scan()
  // Modules the sources declare themselves (plugins/embed-hash/wink-porter2-stemmer.d.ts).
  const declared = new Set(SOURCES.flatMap(d => [...files(path.join(REPO, d))]).flatMap(f => [...readFileSync(f, 'utf8').matchAll(/^declare module ['"]([^'"]+)['"]/gm)].map(m => m[1])))
  for (const [p, f] of [...value, ...types]) {
    const dir = path.join(REPO, 'node_modules', p)
    if (declared.has(p) || !existsSync(path.join(dir, 'package.json'))) continue
    const pkg = readPkg(path.join(dir, 'package.json')) as Pkg & { main?: string }
    const entry = (pkg.exports as { '.'?: { import?: string } } | undefined)?.['.']?.import ?? pkg.main ?? 'index.js'
    const typed = pkg.types !== undefined || pkg.typings !== undefined || JSON.stringify(pkg.exports ?? {}).includes('"types"') ||
      existsSync(path.join(dir, 'index.d.ts')) || existsSync(path.join(dir, entry.replace(/\.[cm]?js$/, '.d.ts')))
    if (!typed) needed.set(`@types/${p.replace(/^@([^/]+)\//, '$1__')}`, f)
  }
  t.same([...needed].filter(([p]) => !production.has(p)).map(([p, f]) => `${p} (${f})`), [])
})

t.test('@huggingface/transformers is optional: only imported dynamically, by the plugins that run a model', async t => {
  t.ok(root.optionalDependencies?.['@huggingface/transformers'], 'an optionalDependency')
  t.notOk(root.dependencies?.['@huggingface/transformers'], 'not a dependency')
  const staticImports: string[] = []
  for (const d of SOURCES) {
    for (const f of files(path.join(REPO, d))) {
      if (/^\s*import\s+(?!type\b)[^'"]*from\s+['"]@huggingface\/transformers['"]/m.test(readFileSync(f, 'utf8'))) staticImports.push(path.relative(REPO, f))
    }
  }
  t.same(staticImports, [], 'no static import: a server without it still starts')
})
