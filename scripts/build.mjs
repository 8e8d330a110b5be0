#!/usr/bin/env node
// Compiles the server to JavaScript so `npm start` loads no TypeScript at run time: the
// kernel, the plugins and the SDK go to dist/ (the SDK's own output to packages/sdk/dist,
// which its package.json serves under the `agentd-compiled` condition), with the files
// they read beside them (catalogues, workers, the shipped prompts). Runs on install
// (`prepare`) and before `npm start` (`--if-stale`: only when a source is newer than the
// last build, so a restart compiles nothing).
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const dist = path.join(root, 'dist')
const sdkDist = path.join(root, 'packages', 'sdk', 'dist')
const stamp = path.join(dist, '.build-stamp')
const SOURCES = ['core', 'plugins', 'packages/sdk/src']
const SKIP = /(\.test\.ts$|\/fixtures\/|\/test-fixtures\/|test-support\.ts$)/

function * files (dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name)
    if (e.isDirectory()) { if (e.name !== 'node_modules' && e.name !== 'dist') yield * files(p) } else yield p
  }
}

function newestSource () {
  let newest = 0
  const extra = ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'data/system_prompts.yaml', 'scripts/build.mjs']
  for (const f of [...SOURCES.flatMap(d => [...files(path.join(root, d))]), ...extra.map(f => path.join(root, f))]) {
    if (existsSync(f)) newest = Math.max(newest, statSync(f).mtimeMs)
  }
  return newest
}

if (process.argv.includes('--if-stale') && existsSync(stamp) && existsSync(sdkDist) && statSync(stamp).mtimeMs >= newestSource()) process.exit(0)

const started = performance.now()
rmSync(dist, { recursive: true, force: true })
rmSync(sdkDist, { recursive: true, force: true })
// typescript@7 is a native compiler: run its executable itself, not through a node
// process (which a test runner's loaders would follow into).
const { default: tscPath } = await import(pathToFileURL(path.join(root, 'node_modules', 'typescript', 'lib', 'getExePath.js')).href)
const tsc = spawnSync(tscPath(), ['-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit' })
if (tsc.status !== 0) {
  console.error('build: the TypeScript compiler failed (above); `npm run dev` runs the sources without compiling.')
  process.exit(tsc.status ?? 1)
}
// What the compiled code reads at run time beside itself.
for (const dir of SOURCES) {
  for (const f of files(path.join(root, dir))) {
    if (f.endsWith('.ts') || SKIP.test(f)) continue
    const to = path.join(dist, path.relative(root, f))
    mkdirSync(path.dirname(to), { recursive: true })
    cpSync(f, to)
  }
}
mkdirSync(path.join(dist, 'data'), { recursive: true })
cpSync(path.join(root, 'data', 'system_prompts.yaml'), path.join(dist, 'data', 'system_prompts.yaml'))
renameSync(path.join(dist, 'packages', 'sdk', 'src'), sdkDist)
// The SDK's source maps name their sources relative to where tsc wrote them
// (dist/packages/sdk/src/...): from packages/sdk/dist/... that is one folder too high.
for (const f of files(sdkDist)) {
  if (!f.endsWith('.js.map')) continue
  const map = JSON.parse(readFileSync(f, 'utf8'))
  const was = path.join(dist, 'packages', 'sdk', 'src', path.relative(sdkDist, path.dirname(f)))
  map.sources = map.sources.map(s => path.relative(path.dirname(f), path.resolve(was, s)).split(path.sep).join('/'))
  writeFileSync(f, JSON.stringify(map))
}
rmSync(path.join(dist, 'packages'), { recursive: true, force: true })
// TypeBox bundled into one module graph of a few files (the SDK serves it as
// `@agentd/sdk/typebox*` under the `agentd-compiled` condition): as published it is ~700
// ES modules, and Node loading them one by one was ~250 ms of every start. Code splitting
// keeps a single TypeBox instance across the entry points (one format registry).
// ajv-formats (CommonJS, pulling in ajv) stays an import from node_modules.
const { build } = await import('esbuild')
const facades = path.join(root, 'packages', 'sdk', 'src', 'typebox')
await build({
  entryPoints: readdirSync(facades).filter(f => f.endsWith('.ts')).map(f => path.join(facades, f)),
  outdir: path.join(sdkDist, 'vendor', 'typebox'),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['ajv-formats'],
  logLevel: 'warning',
})
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'))
writeFileSync(path.join(dist, 'package.json'), `${JSON.stringify({ type: 'module', version, private: true }, null, 2)}\n`)
// The embedded database's initialised cluster, so a new data folder starts in a second.
const { ensurePgliteSeed } = await import(pathToFileURL(path.join(sdkDist, 'kits', 'sql', 'pglite-seed.js')).href)
await ensurePgliteSeed()
// The same cluster with every migration applied by the compiled plugins (prepared-seed.mjs).
const { makePreparedSeed } = await import('./prepared-seed.mjs')
const why = await makePreparedSeed(root, path.join(sdkDist, 'pglite-ready'))
if (why !== undefined) console.warn(`build: no prepared PGlite seed (${why}); a new data folder is migrated at its first start instead.`)
writeFileSync(stamp, new Date().toISOString())
console.log(`build: compiled to dist/ in ${Math.round(performance.now() - started)} ms`)
