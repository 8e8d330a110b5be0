// `npm test` (scripts/run-tests.mjs): reads tap's closing summary line to print
// "N passed, M failed", and runs a folder's tests when given a folder.
import t from 'tap'
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
// @ts-expect-error -- a plain .mjs script without type declarations
import { parseSummary, expandFolders } from '../../scripts/run-tests.mjs'

const parse = parseSummary as (text: string) => Record<string, number> | undefined
const expand = expandFolders as (args: string[]) => string[]

t.test('keys in any order, absent ones zero', async t => {
  t.same(parse('# { total: 12, pass: 10, fail: 1, skip: 1 }'), { total: 12, pass: 10, fail: 1, todo: 0, skip: 1 })
  t.same(parse('# { total: 5, fail: 2, todo: 1, pass: 2 }'), { total: 5, pass: 2, fail: 2, todo: 1, skip: 0 })
  t.same(parse('# { skip: 3, total: 3 }'), { total: 3, pass: 0, fail: 0, todo: 0, skip: 3 })
})

t.test('the last summary wins; a subtest line or no summary is not one', async t => {
  t.same(parse('# { total: 1, pass: 1 }\nok 1 - x\n# { total: 9, pass: 8, fail: 1 }\n# time=3ms')?.total, 9)
  t.equal(parse('    # { total: 2, pass: 2 }\nok 1'), undefined, 'indented: a subtest, not the run')
  t.equal(parse('ok 1 - x\n# time=3ms'), undefined)
})

t.test('a folder argument becomes a glob of its .test.ts files; files, globs and flags pass through', async t => {
  const dir = mkdtempSync(path.join(tmpdir(), 'agentd-args-'))
  t.teardown(() => { rmSync(dir, { recursive: true, force: true }) })
  mkdirSync(path.join(dir, 'sub'))
  t.same(expand([`${dir}/sub/`, `${dir}/sub`, 'core/config.test.ts', 'plugins/**/*.test.ts', '--bail']),
    [`${dir}/sub/**/*.test.ts`, `${dir}/sub/**/*.test.ts`, 'core/config.test.ts', 'plugins/**/*.test.ts', '--bail'])
})
