// The jobs plugin on PGlite and on the real PostgreSQL. Schedules fire by themselves, and two runs of one job never overlap.
import t from 'tap'
import { startKernel } from '../../test/helpers/kernel.ts'
import { Workspace } from '../../test/helpers/workspace.ts'
import { pollUntil } from '../../test/helpers/poll.ts'
import { journal } from '../../test/fixtures/plugins/test-jobs/index.ts'
import { JOBS_TARGETS, plugins, post, type Body } from './test-support.ts'

// One server per backend for both behaviours, each on a job of its own.
for (const target of JOBS_TARGETS) t.test(target.name, async t => {
  const busy = `busy_${target.name}`
  journal().maxActive.delete(busy)
  const s = await startKernel(t, {
    plugins: plugins([
      { name: `tick_${target.name}`, schedule: { every_seconds: 1 } },
      { name: busy, schedule: { every_seconds: 1 }, sleep_ms: 700 },
    ], target.sqlOptions(t)),
  })

  t.test('a scheduled job fires on its own and records its runs', async t => {
    const name = `tick_${target.name}`
    const { body } = await pollUntil(async () => await s.json(`/api/jobs/${name}`), r => r.body.job.run_count >= 2, 15_000, 100)
    t.ok(body.job.run_count >= 2, `ran ${body.job.run_count} times`)
    t.equal(body.job.interval_minutes, 1 / 60)
    t.equal(body.history[0].trigger, 'schedule')
    t.equal(body.history[0].success, true)
    t.match(body.history[0].metrics, { slept_ms: 0, pid: process.pid, measured_ms: Number })
    t.ok(body.history[0].slot, 'a scheduled run names its slot')
  })

  t.test('two runs of one job never overlap', async t => {
    const name = busy
    const statuses: number[] = []
    for (let i = 0; i < 3; i++) {
      const all = await Promise.all([1, 2, 3].map(async () => (await post(s, `/api/jobs/${name}/run`)).status))
      statuses.push(...all)
    }
    t.ok(statuses.includes(409), `some asks were refused while a run was going: ${statuses.join(',')}`)
    t.ok(statuses.every(x => x === 200 || x === 409), statuses.join(','))
    await pollUntil(async () => (await s.json(`/api/jobs/${name}`)).body.job.run_count, n => n >= 4, 15_000, 100)
    t.equal(journal().maxActive.get(name), 1, 'never two at once')
  })
})
