#!/usr/bin/env node
// `npm run mutate [module...]`: mutation testing with StrykerJS, one module at a time, each
// against only the tests that pin it (fast), with the tap runner and per-test-file
// coverage (a mutant runs only the test files that reach it). Not part of `npm test`: it
// runs the module's tests once per mutant.
//
// In place: Stryker mutates the files in this working tree and puts them back when it
// ends. A sandbox copy would not do here: node_modules/@agentd/sdk links to the real
// packages/sdk, so the plugins under test would import the unmutated SDK.
// Do not edit or commit while a run is going on; an interrupted run restores the files
// on its next start (Stryker keeps the originals in .stryker-tmp).
//
// Scores land in reports/mutation/<module>.json (mutation-testing-report-schema) and in
// a summary table at the end; docs/testing.md keeps the table of the last full run.
import { Stryker } from '@stryker-mutator/core'
import { mkdirSync, writeFileSync } from 'node:fs'

/**
 * What a silent regression would hurt most (issue 22), each with the tests that pin it.
 * `mutate` takes Stryker's `file:startLine-endLine` for part of a file.
 */
export const MODULES = {
  'config-layering': {
    mutate: ['core/config.ts', 'core/config-schema.ts', 'packages/sdk/src/kernel/config-view.ts'],
    tests: ['core/config.test.ts', 'packages/sdk/src/kernel/config-view.test.ts'],
  },
  'generation-swap': {
    // The dispatcher, plugin statuses, change detection, reload, deactivate, retire and
    // settle (not start-up or shutdown); a generation's plugin registration, tracking and drain.
    mutate: ['core/kernel.ts:96-163', 'core/kernel.ts:196-264', 'core/generation.ts:102-146'],
    tests: ['test/kernel/generation-swap.test.ts', 'test/kernel/swap-order.test.ts', 'test/kernel/reload-under-load.test.ts', 'test/kernel/config-reload.test.ts', 'test/kernel/bad-plugins.test.ts', 'test/kernel/resources.test.ts', 'test/kernel/starting.test.ts'],
  },
  'provider-relay-retry': {
    mutate: ['packages/sdk/src/kits/provider/relay.ts', 'packages/sdk/src/kits/provider/upstream.ts', 'packages/sdk/src/kits/provider/deadline.ts'],
    tests: ['packages/sdk/src/kits/provider/kit.test.ts', 'packages/sdk/src/kits/provider/relay-retry.test.ts'],
  },
  'recall-fusion': {
    mutate: ['plugins/memory/recall-merge.ts', 'packages/sdk/src/kits/recall/fuse.ts', 'plugins/memory/vector-recency.ts'],
    tests: ['plugins/memory/fuse.test.ts', 'plugins/memory/vector-recency.test.ts'],
  },
  'think-parser': {
    mutate: ['packages/sdk/src/kits/output/think.ts'],
    tests: ['packages/sdk/src/kits/output/think.test.ts', 'packages/sdk/src/kits/output/text.test.ts'],
  },
  'tool-loop': {
    mutate: ['packages/sdk/src/kits/tools/tool-loop.ts'],
    tests: ['packages/sdk/src/kits/tools/tool-loop.test.ts'],
  },
}

const concurrency = Number(process.env.MUTATE_CONCURRENCY ?? 2)

async function run (name) {
  const m = MODULES[name]
  if (m === undefined) throw new Error(`no module "${name}"; known: ${Object.keys(MODULES).join(', ')}`)
  const jsonFile = `reports/mutation/${name}.json`
  const started = Date.now()
  const results = await new Stryker({
    mutate: m.mutate,
    testRunner: 'tap',
    tap: { testFiles: m.tests, nodeArgs: ['--import=tsx'], forceBail: true },
    plugins: ['@stryker-mutator/tap-runner'],
    coverageAnalysis: 'perTest',
    inPlace: true,
    concurrency,
    // A kernel test starts slower on a loaded machine; a mutant that hangs is a timeout (killed).
    timeoutMS: 30_000,
    timeoutFactor: 2,
    reporters: ['clear-text', 'progress', 'json'],
    jsonReporter: { fileName: jsonFile },
    clearTextReporter: { allowColor: false, logTests: false, reportMutants: true, reportScoreTable: true },
    tempDirName: '.stryker-tmp',
    cleanTempDir: 'always',
    // No type checker runs (tsx strips types), so no file needs a @ts-nocheck.
    disableTypeChecks: false,
    ignoreStatic: false,
    thresholds: { high: 90, low: 80, break: null },
    logLevel: process.env.MUTATE_LOG_LEVEL ?? 'info',
  }).runMutationTest()
  const count = (...states) => results.filter(r => states.includes(r.status)).length
  const detected = count('Killed', 'Timeout')
  const total = results.filter(r => !['Ignored', 'CompileError', 'RuntimeError'].includes(r.status)).length
  return {
    module: name,
    mutants: results.length,
    killed: count('Killed'),
    timeout: count('Timeout'),
    survived: count('Survived'),
    no_coverage: count('NoCoverage'),
    ignored: count('Ignored'),
    errors: count('CompileError', 'RuntimeError'),
    score: total === 0 ? 100 : Math.round(detected / total * 1000) / 10,
    minutes: Math.round((Date.now() - started) / 6000) / 10,
  }
}

async function main () {
  const names = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(MODULES)
  mkdirSync('reports/mutation', { recursive: true })
  const rows = []
  for (const name of names) {
    rows.push(await run(name))
    writeFileSync(`reports/mutation/${name}.summary.json`, JSON.stringify(rows.at(-1), null, 2) + '\n')
  }
  const header = '| module | mutants | killed | timeout | survived | no coverage | score | minutes |'
  console.log(['', header, '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map(r => `| ${r.module} | ${r.mutants} | ${r.killed} | ${r.timeout} | ${r.survived} | ${r.no_coverage} | ${r.score}% | ${r.minutes} |`)].join('\n'))
  const low = rows.filter(r => r.score < 80)
  if (low.length > 0) {
    console.log(`\nbelow 80%: ${low.map(r => `${r.module} (${r.score}%)`).join(', ')}`)
    process.exitCode = 1
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main()
