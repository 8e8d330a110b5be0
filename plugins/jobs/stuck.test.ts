// A run whose process is killed mid-way stays `running` until clear-stuck ends it (once
// its worker has missed three heartbeats); the queue then takes the next run. The killed
// process is a real child process; the one that clears is this test's kernel, on the same
// database (the same PGlite folder, or the same PostgreSQL schema).
import t from 'tap'
import { startKernel } from '../../test/helpers/kernel.ts'
import { Workspace } from '../../test/helpers/workspace.ts'
import { pollUntil } from '../../test/helpers/poll.ts'
import { spawnAgentd } from '../../test/helpers/agentd-process.ts'
import { JOBS_TARGETS, plugins, post } from './test-support.ts'

for (const target of JOBS_TARGETS) {
  t.test(`${target.name}: clear-stuck ends a run whose worker was killed`, async t => {
    const ws = new Workspace()
    t.teardown(() => { ws.remove() })
    const sql = target.sqlOptions(t)
    ws.writePlugins(plugins([{ name: 'long', sleep_ms: 120_000 }], sql, { worker_heartbeat_seconds: 1 }))
    const a = await spawnAgentd(t, ws)
    void fetch(`${a.url}/api/jobs/long/run`, { method: 'POST' }).catch(() => {})
    const running = await pollUntil(async () => await (await fetch(`${a.url}/api/jobs/long`)).json() as { job: { status: string } }, b => b.job.status === 'running', 30_000, 100)
    t.equal(running.job.status, 'running', 'running on the first process')
    await a.kill()

    // The same job, now quick, on another process.
    const b = await startKernel(t, { ws, plugins: plugins([{ name: 'long' }], sql, { worker_heartbeat_seconds: 1 }) })
    t.equal((await b.json('/api/jobs/long')).body.job.status, 'running', 'reported running until cleared')
    t.equal((await post(b, '/api/jobs/long/run')).status, 409, 'the dead run still holds the queue')
    const cleared = await pollUntil(async () => await post(b, '/api/jobs/clear-stuck'), r => r.body.cleared_jobs?.length > 0, 20_000, 250)
    t.match(cleared.body, { success: true, cleared_jobs: ['long'], message: /Cleared 1 stuck run/ })
    t.equal(cleared.body.cleared_runs.length, 1)
    const { body } = await b.json('/api/jobs/long')
    t.match(body.job, { status: 'idle', failure_count: 1, last_error: /cleared by clear-stuck/ })
    t.match(body.history[0], { id: cleared.body.cleared_runs[0], success: false })
    t.match(await post(b, '/api/jobs/long/run'), { status: 200, body: { success: true } }, 'the queue takes the next run')
    t.same((await post(b, '/api/jobs/clear-stuck')).body.cleared_jobs, [], 'nothing left to clear')
  })
}
