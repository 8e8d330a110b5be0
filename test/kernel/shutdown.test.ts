// `npm start`'s process: SIGTERM or SIGINT stops accepting at once, lets an in-flight
// stream finish, closes the plugins (their onClose hooks run) and exits 0.
import t from 'tap'
import { spawn } from 'node:child_process'
import net from 'node:net'
import path from 'node:path'
import { Workspace, REPO, fixturePlugin } from '../helpers/workspace.ts'
import { pollUntil } from '../helpers/poll.ts'
import { TS_LOADER } from '../ts-loader/url.ts'

const closeLogger = new URL('./fixtures/close-logger', import.meta.url).pathname

/** Resolves with the error code of a fresh TCP connection attempt, or 'connected'. */
async function tryConnect (port: number): Promise<string> {
  return await new Promise(resolve => {
    const socket = net.connect(port, '127.0.0.1')
    socket.once('connect', () => { socket.destroy(); resolve('connected') })
    socket.once('error', (err: NodeJS.ErrnoException) => { resolve(err.code ?? err.message) })
  })
}

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  t.test(`${signal}: no new connections while a stream drains; the stream completes, plugins close, exit 0`, async t => {
    const ws = new Workspace()
    t.teardown(() => { ws.remove() })
    ws.writePlugins([
      // The stream holds after its first chunk until the test writes the gate file.
      { name: 'probe', module: fixturePlugin('probe'), options: { chunks: 5, chunk_ms: 10, gate_file: path.join(ws.dir, 'stream-may-go-on') } },
      { name: 'closer', module: closeLogger },
    ])
    const child = spawn(process.execPath, ['--conditions=agentd-typebox-bundle', `--import=${TS_LOADER}`, path.join(REPO, 'core/main.ts')], {
      cwd: ws.dir,
      env: { PATH: process.env.PATH, API_PORT: '0', AGENT_LOG_LEVEL: 'info', AGENT_DATA_DIR: ws.dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    t.teardown(() => { child.kill('SIGKILL') })
    let log = ''
    child.stdout.on('data', (d: Buffer) => { log += d.toString() })
    // 'close', not 'exit': the last log lines are read only once stdout has closed.
    const exited = new Promise<number | null>(resolve => child.once('close', code => { resolve(code) }))
    const waitFor = async (re: RegExp, ms = 30_000): Promise<RegExpExecArray> => {
      const m = await pollUntil(() => re.exec(log), found => found !== null || child.exitCode !== null, ms)
      if (m === null) throw new Error(`no ${re} in the log: ${log}`)
      return m
    }
    const port = Number((await waitFor(/listening on http:\/\/127\.0\.0\.1:(\d+)/))[1])

    const res = await fetch(`http://127.0.0.1:${port}/api/probe/stream`, { headers: { accept: 'text/event-stream' } })
    const reader = res.body!.getReader()
    let body = new TextDecoder().decode((await reader.read()).value)
    t.match(body, /event: chunk/, 'the stream is running')
    let streamDone = false
    const rest = (async () => {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        body += new TextDecoder().decode(value)
      }
      streamDone = true
    })()

    child.kill(signal)
    await waitFor(/shutting down/)
    t.equal(await pollUntil(async () => await tryConnect(port), r => r !== 'connected'), 'ECONNREFUSED', 'a new connection is refused')
    t.equal(streamDone, false, 'while the stream in flight is still running (it holds until the gate file is written)')
    ws.write('stream-may-go-on', '')

    await rest
    t.match(body, /event: done/, 'the stream in flight completed')
    t.equal(await exited, 0, 'exit code 0')
    // Order by each line's own timestamp: the kernel's and a generation's loggers buffer
    // their writes apart, so lines can reach stdout out of order.
    const lines = log.split('\n').filter(l => l.startsWith('{')).map(l => JSON.parse(l) as { time: number, msg: string })
    const at = (msg: RegExp): number => lines.find(l => msg.test(l.msg))?.time ?? NaN
    t.ok(at(/close-logger onClose ran/) >= at(/shutting down/), `the plugin's onClose ran at shutdown: ${log}`)
    t.ok(at(/^stopped$/) >= at(/close-logger onClose ran/), 'before the process stopped')
    t.match(log, new RegExp(`"signal":"${signal}"`))
  })
}
