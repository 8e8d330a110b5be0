// Plugins log through app.log and request.log as with any Fastify app: lines carry the
// generation, request lines the request id, secrets are redacted, and a 500 is logged
// with its error. (Fastify itself is given no logger; see core/generation.ts.)
import t from 'tap'
import { REDACT_PATHS } from '../../core/logger.ts'
import { Workspace } from '../helpers/workspace.ts'
import { startKernel } from '../helpers/kernel.ts'

t.test('app.log, request.log and the error handler all reach the kernel logger', async t => {
  const ws = new Workspace()
  t.teardown(() => { ws.remove() })
  ws.write('talky/index.js', `const talky = async (app) => {
  app.log.info({ provider: { api_key: 'sk-live-123' } }, 'talky registered')
  app.get('/api/talk', async (request) => { request.log.info('talking'); request.log.debug('not at info'); return { ok: true } })
  app.get('/api/fail', async () => { throw new Error('kaboom') })
}
talky[Symbol.for('skip-override')] = true
export default talky`)
  // The kernel's own redaction (core/logger.ts), into an array.
  const s = await startKernel(t, { ws, plugins: [{ name: 'talky', module: './talky' }], watch: false, logLevel: 'info', logOptions: { redact: { paths: REDACT_PATHS, censor: '[redacted]' } } })
  const lines = s.logs
  t.equal((await s.get('/api/talk')).status, 200)
  t.equal((await s.get('/api/fail')).status, 500)

  const registered = lines.find(l => l.msg === 'talky registered')
  t.match(registered, { generation: 1, provider: { api_key: '[redacted]' } })
  const talking = lines.find(l => l.msg === 'talking')
  t.match(talking, { generation: 1, request_id: /^[0-9a-f-]{36}$/ })
  t.notOk(lines.some(l => l.msg === 'not at info'), 'below the level: nothing')
  const failed = lines.find(l => l.msg === 'request failed')
  t.match(failed, { level: 50, generation: 1, request_id: /^[0-9a-f-]{36}$/, err: { message: 'kaboom' } })
})
