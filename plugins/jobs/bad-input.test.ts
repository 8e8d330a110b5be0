// The jobs endpoints' answers to bad input (DECISIONS.md): 404, 400, bodies ignored where none is taken.
import t from 'tap'
import { startKernel } from '../../test/helpers/kernel.ts'
import { Workspace } from '../../test/helpers/workspace.ts'
import { pollUntil } from '../../test/helpers/poll.ts'
import { journal } from '../../test/fixtures/plugins/test-jobs/index.ts'
import { JOBS_TARGETS, plugins, post, type Body } from './test-support.ts'

t.test('bad input: unknown job 404, toggle without a boolean 400, bodies on run and clear-stuck ignored, empty JSON body accepted', async t => {
  const s = await startKernel(t, { plugins: plugins([{ name: 'quick' }], {}) })
  for (const [method, path] of [['GET', '/api/jobs/nope'], ['POST', '/api/jobs/nope/run'], ['POST', '/api/jobs/nope/toggle']]) {
    const res = await fetch(s.url + path, { method, headers: { 'content-type': 'application/json' }, body: method === 'POST' ? '{"enabled":true}' : undefined })
    const body = await res.json() as Body
    t.equal(res.status, 404, path)
    t.match(body, { code: 'AGENT_ERR_NOT_FOUND', error: /No job named "nope"; jobs: quick/ })
  }
  for (const body of [{}, { enabled: 'yes' }, { enabled: 1 }, [], null]) {
    const r = await post(s, '/api/jobs/quick/toggle', body)
    t.equal(r.status, 400, JSON.stringify(body))
    t.match(r.body, { code: 'AGENT_ERR_VALIDATION', details: [{ path: '/enabled' }] })
  }
  t.equal((await post(s, '/api/jobs/quick/toggle')).status, 400, 'no body')
  const malformed = await fetch(s.url + '/api/jobs/quick/toggle', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"enabled":' })
  t.equal(malformed.status, 400, 'malformed JSON')
  t.equal((await post(s, '/api/jobs/quick/run', { anything: 1 })).status, 200, 'a body on run is ignored')
  t.equal((await post(s, '/api/jobs/clear-stuck', { anything: 1 })).status, 200, 'a body on clear-stuck is ignored')
  const empty = await post(s, '/api/jobs/quick/run')
  t.match(empty, { status: 200, body: { success: true } }, 'empty body with Content-Type: application/json')
  const cleared = await post(s, '/api/jobs/clear-stuck')
  t.same(cleared, { status: 200, body: { success: true, cleared_jobs: [], cleared_runs: [], message: 'No stuck runs.' } })
  const noType = await fetch(s.url + '/api/jobs/quick/run', { method: 'POST' })
  t.equal(noType.status, 200, 'no body, no Content-Type')
})
