// The jobs plugin on PGlite and on the real PostgreSQL. `run` waits for the result and returns metrics; history keeps the last 10.
// One server per backend for both behaviours (each on jobs of its own).
import t from 'tap'
import { startKernel } from '../../test/helpers/kernel.ts'
import { Workspace } from '../../test/helpers/workspace.ts'
import { pollUntil } from '../../test/helpers/poll.ts'
import { journal } from '../../test/fixtures/plugins/test-jobs/index.ts'
import { JOBS_TARGETS, plugins, post, type Body } from './test-support.ts'

for (const target of JOBS_TARGETS) t.test(target.name, async t => {
  const s = await startKernel(t, { plugins: plugins([{ name: 'slow', sleep_ms: 300 }, { name: 'broken', fail: true }, { name: 'quick' }], target.sqlOptions(t)) })

  t.test('run waits for the result and returns its metrics; a failure is reported, not thrown', async t => {
    const ok = await post(s, '/api/jobs/slow/run')
    t.equal(ok.status, 200)
    t.match(ok.body, { success: true, job: 'slow', metrics: { slept_ms: 300 } })
    // The run's duration covers the job's own (it is timed around it), in whole milliseconds
    // (SPEC.md: an int), so rounded it is at least the job's own rounded down.
    t.ok(Number.isInteger(ok.body.duration_ms), 'an integer')
    t.ok(ok.body.duration_ms >= Math.floor(ok.body.metrics.measured_ms), `duration ${ok.body.duration_ms} covers the sleep of ${ok.body.metrics.measured_ms} ms`)
    t.same(ok.body.result, ok.body.metrics, 'the metrics under `result` too (the original client reads that)')
    t.ok(ok.body.metrics.measured_ms >= 290, 'the job slept about as long as asked')
    const bad = await post(s, '/api/jobs/broken/run')
    t.equal(bad.status, 200)
    t.match(bad.body, { success: false, job: 'broken', error: 'broken failed on purpose' })
    const { body } = await s.json('/api/jobs')
    const broken = body.jobs.find((j: Body) => j.name === 'broken')
    t.match(broken, { status: 'idle', run_count: 1, success_count: 0, failure_count: 1, last_error: 'broken failed on purpose', last_success: null, success_rate: 0 })
    const slow = body.jobs.find((j: Body) => j.name === 'slow')
    t.match(slow, { run_count: 1, success_rate: 1, last_success: slow.last_run })
    t.ok(Number.isInteger(slow.last_duration_ms) && Number.isInteger(slow.avg_duration_ms) && slow.avg_duration_ms >= 300, `integer durations (${slow.last_duration_ms}, average ${slow.avg_duration_ms})`)
    t.equal(body.worker.status, 'running')
    t.equal(body.workers.length, 1)
    t.match(body.worker, { id: body.workers[0].id, jobs_run: 2, last_heartbeat: String })
    t.equal(body.workers[0].jobs_run, 2, 'each worker says how many runs it finished')
  })

  t.test('history holds the last 10 runs, newest first', async t => {
    for (let i = 0; i < 12; i++) t.equal((await post(s, '/api/jobs/quick/run')).status, 200)
    const { body } = await s.json('/api/jobs/quick')
    t.equal(body.history.length, 10)
    t.equal(body.job.run_count, 12)
    const times = body.history.map((h: Body) => Date.parse(h.timestamp))
    t.same(times, [...times].sort((a, b) => b - a), 'newest first')
    t.match(body.history[0], { success: true, trigger: 'manual', metrics: { slept_ms: 0 }, items_processed: 0 })
    t.ok(Number.isInteger(body.history[0].duration_ms), 'duration_ms is an integer (SPEC.md)')
    t.equal(body.job.success_rate, 1)
  })
})
