// The jobs plugin on PGlite and on the real PostgreSQL. A toggle and the counts survive a reload and a restart.
import t from 'tap'
import { startKernel } from '../../test/helpers/kernel.ts'
import { Workspace } from '../../test/helpers/workspace.ts'
import { pollUntil } from '../../test/helpers/poll.ts'
import { journal } from '../../test/fixtures/plugins/test-jobs/index.ts'
import { JOBS_TARGETS, plugins, post, type Body } from './test-support.ts'

for (const target of JOBS_TARGETS) {
  t.test(`${target.name}: a toggle and the counts survive a reload and a restart`, async t => {
    const ws = new Workspace()
    t.teardown(() => { ws.remove() })
    const sql = target.sqlOptions(t)
    const list = plugins([{ name: 'keep' }], sql)
    const a = await startKernel(t, { ws, plugins: list })
    t.equal((await post(a, '/api/jobs/keep/run')).status, 200)
    t.same((await post(a, '/api/jobs/keep/toggle', { enabled: false })).body, { job: 'keep', enabled: false })
    await a.kernel.reload('test')
    let job = (await a.json('/api/jobs/keep')).body.job
    t.match(job, { enabled: false, run_count: 1 }, 'after a reload')
    await a.kernel.close()
    const b = await startKernel(t, { ws, plugins: list })
    job = (await b.json('/api/jobs/keep')).body.job
    t.match(job, { enabled: false, run_count: 1, success_count: 1 }, 'after a restart')
    t.equal((await b.json('/api/jobs/keep')).body.history.length, 1)
  })
}
