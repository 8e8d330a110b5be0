// `npm ci --omit=dev && npm start` works: scripts/omit-dev-check.mjs does it for real (a
// copy of the working tree installed without dev dependencies, built, started until
// /api/health is ready, stopped with SIGTERM). It takes minutes, so .ci/run runs it before
// `npm test` and this test reports its result, so that a failure counts in the runner's
// "N passed, M failed". Without a result for this commit (a developer's `npm test`), it is
// skipped with the command to run.
import t from 'tap'
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { REPO } from '../helpers/workspace.ts'

interface Result { ok: boolean, commit: string, at: string, install_s?: number, healthy_s?: number, error?: string, log_tail?: string }

const file = path.join(REPO, 'reports', 'omit-dev-start.json')
const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: REPO, encoding: 'utf8' }).trim()
const result = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) as Result : undefined
const skip = result === undefined
  ? 'no result: run `node scripts/omit-dev-check.mjs` (.ci/run runs it before npm test)'
  : result.commit !== head ? `the result is for ${result.commit.slice(0, 8)}, not this commit (${head.slice(0, 8)}): run \`node scripts/omit-dev-check.mjs\`` : false

t.test('npm ci --omit=dev installs and builds, and npm start answers /api/health ready', { skip }, async t => {
  if (result === undefined) return
  t.ok(result.ok, result.ok ? `installed in ${result.install_s} s, ready in ${result.healthy_s} s` : `${result.error ?? 'failed'}\n${result.log_tail ?? ''}`)
})
