// `npm start`'s process: SIGTERM stops accepting, lets an in-flight stream finish,
// closes plugins and exits 0.
import t from 'tap'
import { spawn } from 'node:child_process'
import path from 'node:path'
import { Workspace, REPO, fixturePlugin } from '../helpers/workspace.ts'

t.test('SIGTERM drains an in-flight stream, then exits 0', async t => {
  const ws = new Workspace()
  t.teardown(() => { ws.remove() })
  ws.writePlugins([{ name: 'probe', module: fixturePlugin('probe'), options: { chunks: 6, chunk_ms: 80 } }])
  const child = spawn(process.execPath, [`--import=${import.meta.resolve('tsx')}`, path.join(REPO, 'core/main.ts')], {
    cwd: ws.dir,
    env: { PATH: process.env.PATH, API_PORT: '0', AGENT_LOG_LEVEL: 'info', AGENT_DATA_DIR: ws.dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  t.teardown(() => { child.kill('SIGKILL') })
  let log = ''
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      log += d.toString()
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(log)
      if (m !== null) resolve(Number(m[1]))
    })
    child.once('exit', code => { reject(new Error(`exited ${code}: ${log}`)) })
  })
  const res = await fetch(`http://127.0.0.1:${port}/api/probe/stream`, { headers: { accept: 'text/event-stream' } })
  const exited = new Promise<number | null>(resolve => child.once('exit', code => { resolve(code) }))
  child.kill('SIGTERM')
  const body = await res.text()
  t.match(body, /event: done/, 'the stream in flight completed')
  t.equal(await exited, 0, 'exit code 0')
  t.match(log, /shutting down/)
  t.match(log, /"msg":"stopped"/)
  await t.rejects(fetch(`http://127.0.0.1:${port}/api/index`), 'no longer accepting')
})
