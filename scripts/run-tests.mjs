#!/usr/bin/env node
// `npm test`: runs every test with tap and ends with the line CI reads: "N passed, M failed".
// Extra arguments go to tap (e.g. `npm test -- plugins/provider-openai`).
import { spawn, spawnSync } from 'node:child_process'

const args = process.argv.slice(2)
// tap compiles its plugin set into node_modules; a fresh `npm ci` has the default set
// (with @tapjs/typescript, which cannot load typescript@7). Rebuild it from .taprc first.
const build = spawnSync('npx', ['tap', 'build'], { stdio: ['ignore', 'pipe', 'pipe'] })
if (build.status !== 0) {
  process.stderr.write(build.stdout.toString() + build.stderr.toString())
  console.log('0 passed, 1 failed (tap build failed)')
  process.exit(1)
}
const child = spawn('npx', ['tap', ...args], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, FORCE_COLOR: '0' } })
let summary
let buffer = ''
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk)
  buffer = (buffer + chunk.toString()).split('\n').slice(-50).join('\n')
})
child.on('close', (code) => {
  const m = [...buffer.matchAll(/^# \{ total: (\d+)(?:, pass: (\d+))?(?:, fail: (\d+))?(?:, skip: (\d+))?(?:, todo: (\d+))?/gm)].pop()
  if (m === undefined) {
    console.log(`0 passed, 1 failed${code === 0 ? '' : ` (tap exited ${code} without a summary)`}`)
    process.exit(code === 0 ? 1 : code ?? 1)
  }
  summary = { pass: Number(m[2] ?? 0), fail: Number(m[3] ?? 0), skip: Number(m[4] ?? 0) }
  console.log(`${summary.pass} passed, ${summary.fail} failed${summary.skip > 0 ? `, ${summary.skip} skipped` : ''}`)
  process.exit(summary.fail > 0 ? 1 : (code ?? 1))
})
