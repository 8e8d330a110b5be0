#!/usr/bin/env node
// `npm test`: runs every test with tap and ends with the line CI reads: "N passed, M failed".
// Extra arguments go to tap (e.g. `npm test -- plugins/provider-openai`).
import { spawn, spawnSync } from 'node:child_process'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { existsSync, readFileSync, statSync } from 'node:fs'

/** tap's closing summary, `# { total: 12, pass: 10, fail: 1, skip: 1 }`, its keys in any order and any of them absent. */
export function parseSummary (text) {
  const line = [...text.matchAll(/^# \{([^}\n]*\btotal: \d+[^}\n]*)\}/gm)].pop()
  if (line === undefined) return undefined
  const counts = { total: 0, pass: 0, fail: 0, todo: 0, skip: 0 }
  for (const [, key, n] of line[1].matchAll(/(\w+): (\d+)/g)) counts[key] = Number(n)
  return counts
}

/**
 * A folder argument becomes a glob of its tests: without the TypeScript plugin (see
 * below), tap does not find .ts tests in a folder by itself.
 */
export function expandFolders (args) {
  return args.map(a => !a.startsWith('-') && existsSync(a) && statSync(a).isDirectory() ? `${a.replace(/\/+$/, '')}/**/*.test.ts` : a)
}

/** Whether tap's built Test class has exactly the plugins .taprc asks for (tap's own signature of them). */
async function tapBuilt () {
  try {
    const { TapConfig } = await import('@tapjs/config')
    const wanted = (await TapConfig.load()).pluginSignature
    const built = readFileSync(new URL('../node_modules/@tapjs/test/test-built/dist/esm/index.js', import.meta.url), 'utf8')
    return /^export const signature = `([^`]*)`;$/m.exec(built)?.[1] === wanted
  } catch {
    return false
  }
}

async function main () {
  const args = expandFolders(process.argv.slice(2))
  // tap compiles its plugin set into node_modules; a fresh `npm ci` has the default set
  // (with @tapjs/typescript, which cannot load typescript@7). Rebuild it from .taprc first,
  // unless it is built already (the build is tsc over tap's sources: ~8 s of CPU a run).
  const build = await tapBuilt() ? { status: 0 } : spawnSync('npx', ['tap', 'build'], { stdio: ['ignore', 'pipe', 'pipe'] })
  if (build.status !== 0) {
    process.stderr.write(build.stdout.toString() + build.stderr.toString())
    console.log('0 passed, 1 failed (tap build failed)')
    process.exit(1)
  }
  // The tests load TypeBox as the build's bundle (.taprc's agentd-typebox-bundle condition);
  // `npm ci` makes it (prepare), a checkout without a build makes it here.
  if (!existsSync(new URL('../packages/sdk/dist/vendor/typebox/index.js', import.meta.url))) {
    const made = spawnSync(process.execPath, [fileURLToPath(new URL('./build.mjs', import.meta.url))], { stdio: 'inherit' })
    if (made.status !== 0) {
      console.log('0 passed, 1 failed (the build failed)')
      process.exit(1)
    }
  }
  const started = performance.now()
  const child = spawn('npx', ['tap', ...args], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, FORCE_COLOR: '0' } })
  let buffer = ''
  child.stdout.on('data', (chunk) => {
    process.stdout.write(chunk)
    buffer = (buffer + chunk.toString()).split('\n').slice(-50).join('\n')
  })
  child.on('close', (code) => {
    // Before the summary, which stays the last line (CI reads it).
    console.log(`npm test took ${Math.round((performance.now() - started) / 1000)} s`)
    const summary = parseSummary(buffer)
    if (summary === undefined) {
      console.log(`0 passed, 1 failed${code === 0 ? '' : ` (tap exited ${code} without a summary)`}`)
      process.exit(code === 0 ? 1 : code ?? 1)
    }
    const extra = [summary.skip > 0 ? `${summary.skip} skipped` : '', summary.todo > 0 ? `${summary.todo} todo` : ''].filter(Boolean)
    console.log(`${summary.pass} passed, ${summary.fail} failed${extra.map(e => `, ${e}`).join('')}`)
    process.exit(summary.fail > 0 ? 1 : (code ?? 1))
  })
}

// Run only as a script; tests import parseSummary.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main()
