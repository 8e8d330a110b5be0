// Plugins log through app.log and request.log as with any Fastify app: lines carry the
// generation, request lines the request id, secrets are redacted, and a 500 is logged
// with its error. (Fastify itself is given no logger; see core/generation.ts.)
import t from 'tap'
import pino from 'pino'
import { Writable } from 'node:stream'
import { Kernel } from '../../core/kernel.ts'
import { REDACT_PATHS } from '../../core/logger.ts'
import { Workspace } from '../helpers/workspace.ts'
import { testEnv } from '../helpers/kernel.ts'

t.test('app.log, request.log and the error handler all reach the kernel logger', async t => {
  const lines: Array<Record<string, unknown>> = []
  const stream = new Writable({ write (chunk: Buffer, _enc, cb) { for (const l of chunk.toString().split('\n')) if (l !== '') lines.push(JSON.parse(l) as Record<string, unknown>); cb() } })
  const logger = pino({ level: 'info', redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, stream)
  const ws = new Workspace()
  t.teardown(() => { ws.remove() })
  ws.write('talky/index.js', `const talky = async (app) => {
  app.log.info({ provider: { api_key: 'sk-live-123' } }, 'talky registered')
  app.get('/api/talk', async (request) => { request.log.info('talking'); request.log.debug('not at info'); return { ok: true } })
  app.get('/api/fail', async () => { throw new Error('kaboom') })
}
talky[Symbol.for('skip-override')] = true
export default talky`)
  ws.writePlugins([{ name: 'talky', module: './talky' }])
  const kernel = new Kernel({ cwd: ws.dir, env: testEnv(ws), logger, watch: false })
  const { port } = await kernel.start()
  t.teardown(async () => { await kernel.close() })
  t.equal((await fetch(`http://127.0.0.1:${port}/api/talk`)).status, 200)
  t.equal((await fetch(`http://127.0.0.1:${port}/api/fail`)).status, 500)

  const registered = lines.find(l => l.msg === 'talky registered')
  t.match(registered, { generation: 1, provider: { api_key: '[redacted]' } })
  const talking = lines.find(l => l.msg === 'talking')
  t.match(talking, { generation: 1, reqId: /^req-/ })
  t.notOk(lines.some(l => l.msg === 'not at info'), 'below the level: nothing')
  const failed = lines.find(l => l.msg === 'request failed')
  t.match(failed, { level: 50, generation: 1, reqId: /^req-/, err: { message: 'kaboom' } })
})
