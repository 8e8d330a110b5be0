#!/usr/bin/env node
// `node scripts/mutate-recheck.mjs reports/mutation/<module>.json <source.ts> <its test file>`:
// a quick check between full runs (the tests only grew since the report, so its killed mutants stay killed).
// Re-checks a report's survivors and no-coverage mutants against the current test file:
// each mutant applied (exact location and replacement from the report) to a sibling copy
// of the source, the test file copied to import that copy, run with node --import=tsx.
import { readFileSync, writeFileSync, rmSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import path from 'node:path'
const [report, srcFile, testFile] = process.argv.slice(2)
const r = JSON.parse(readFileSync(report, 'utf8'))
const src = readFileSync(srcFile, 'utf8')
const dir = path.dirname(srcFile)
const base = path.basename(srcFile)
const mcSrc = path.join(dir, `mc-${base}`)
const mcTest = path.join(path.dirname(testFile), `mc-${path.basename(testFile)}`)
const lines = src.split('\n')
const offset = (l, c) => lines.slice(0, l - 1).reduce((n, x) => n + x.length + 1, 0) + c - 1
let killed = 0, survived = 0
for (const m of r.files[srcFile].mutants) {
  if (m.status !== 'Survived' && m.status !== 'NoCoverage') continue
  const a = offset(m.location.start.line, m.location.start.column)
  const b = offset(m.location.end.line, m.location.end.column)
  writeFileSync(mcSrc, src.slice(0, a) + m.replacement + src.slice(b))
  writeFileSync(mcTest, readFileSync(testFile, 'utf8').replace(`from './${base}'`, `from './mc-${base}'`))
  const res = spawnSync('node', ['--import=tsx', mcTest], { stdio: 'ignore', timeout: 60_000 })
  const dead = res.status !== 0
  if (dead) killed++; else survived++
  console.log(dead ? 'KILLED  ' : 'SURVIVED', `${m.location.start.line}:${m.location.start.column}`, m.status, m.mutatorName, JSON.stringify(m.replacement).slice(0, 70))
}
rmSync(mcSrc); rmSync(mcTest)
console.log(`re-checked ${killed + survived}: ${killed} killed, ${survived} survived`)
