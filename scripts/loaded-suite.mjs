#!/usr/bin/env node
// `npm run test:loaded`: the whole suite run several times in a row while busy loops hold
// every core, the check that no test depends on a quiet machine (timing, fixed sleeps,
// races). Each run is `npm test` as CI runs it, its report passed on; a line per run
// follows it, and the exit code is 1 when any run failed.
// Options: --runs N (5), --burners N (one per core). Slow: about 10 minutes a run on 2 cores.
import { spawn } from 'node:child_process'
import { availableParallelism } from 'node:os'
import { parseArgs } from 'node:util'

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' }, burners: { type: 'string', default: String(availableParallelism()) } } })
const runs = Number(values.runs)
const burnerCount = Number(values.burners)
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(burnerCount) || burnerCount < 0) {
  console.error('usage: node scripts/loaded-suite.mjs [--runs N (>= 1)] [--burners N (>= 0)]')
  process.exit(2)
}

// A burner is a separate process spinning forever, so the load does not share the suite's event loops.
const burners = Array.from({ length: burnerCount }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }))
const stop = () => { for (const b of burners) b.kill('SIGKILL') }
process.on('SIGINT', () => { stop(); process.exit(130) })

/** One `npm test`: its closing "N passed, M failed" line and how long it took. */
function suite () {
  return new Promise((resolve) => {
    const started = Date.now()
    const child = spawn('npm', ['test'], { stdio: ['ignore', 'pipe', 'inherit'] })
    let tail = ''
    // Passed on as it comes, so a failing run's report is there to read; the tail gives the summary line.
    child.stdout.on('data', (chunk) => { process.stdout.write(chunk); tail = (tail + chunk.toString()).slice(-2000) })
    child.on('close', (code) => {
      const line = tail.trim().split('\n').filter(l => /^\d+ passed, \d+ failed/.test(l)).pop() ?? `no summary (exit ${code})`
      resolve({ line, code, seconds: Math.round((Date.now() - started) / 1000) })
    })
  })
}

const results = []
try {
  for (let i = 1; i <= runs; i++) {
    const r = await suite()
    results.push(r)
    console.log(`run ${i}/${runs}: ${r.line} (${r.seconds} s, ${burnerCount} burners)`)
  }
} finally {
  stop()
}
const failed = results.filter(r => r.code !== 0).length
console.log(`${runs - failed} of ${runs} loaded runs passed`)
process.exit(failed === 0 ? 0 : 1)
