// Throw-away PostgreSQL and Redis servers on spare loopback ports, owned by one test, so
// the test can stop and restart them. PostgreSQL must run as the postgres user.
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { chownSync, mkdtempSync, rmSync } from 'node:fs'
import { freePort } from '../helpers/net.ts'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { once } from 'node:events'

const run = promisify(execFile)
const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin'

/** A free loopback port for a server this test starts. */
export const sparePort = freePort

async function asPostgres (cmd: string, args: string[]): Promise<void> {
  const [bin, argv] = process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', path.join(PG_BIN, cmd), ...args]] : [path.join(PG_BIN, cmd), args]
  await run(bin, argv, { timeout: 60_000 })
}

export class PgServer {
  readonly dir: string
  readonly port: number
  get uri (): string { return `postgresql://postgres@127.0.0.1:${this.port}/postgres` }
  private constructor (dir: string, port: number) { this.dir = dir; this.port = port }

  static async create (): Promise<PgServer> {
    const dir = mkdtempSync(path.join(tmpdir(), 'agentd-pg-'))
    if (process.getuid?.() === 0) {
      const { stdout } = await run('id', ['-u', 'postgres'])
      const uid = Number(stdout.trim())
      const { stdout: g } = await run('id', ['-g', 'postgres'])
      chownSync(dir, uid, Number(g.trim()))
    }
    await asPostgres('initdb', ['-D', path.join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8'])
    const s = new PgServer(dir, await sparePort())
    await s.start()
    return s
  }

  async start (): Promise<void> {
    await asPostgres('pg_ctl', ['-D', path.join(this.dir, 'data'), '-l', path.join(this.dir, 'log'), '-w', '-t', '30', '-o',
      `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start'])
  }

  async stop (): Promise<void> {
    await asPostgres('pg_ctl', ['-D', path.join(this.dir, 'data'), '-m', 'immediate', '-w', 'stop']).catch(() => {})
  }

  async destroy (): Promise<void> { await this.stop(); rmSync(this.dir, { recursive: true, force: true }) }
}

export class RedisServer {
  readonly port: number
  #proc: ChildProcess | undefined
  get uri (): string { return `redis://127.0.0.1:${this.port}` }
  private constructor (port: number) { this.port = port }

  static async create (): Promise<RedisServer> {
    const s = new RedisServer(await sparePort())
    await s.start()
    return s
  }

  async start (): Promise<void> {
    const proc = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'inherit'] })
    this.#proc = proc
    let out = ''
    proc.stdout?.on('data', (d: Buffer) => { out += d.toString() })
    const deadline = Date.now() + 10_000
    while (!out.includes('Ready to accept connections')) {
      if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`redis-server did not start: ${out}`)
      await new Promise(resolve => setTimeout(resolve, 20))
    }
  }

  async stop (): Promise<void> {
    const p = this.#proc
    if (p === undefined || p.exitCode !== null) return
    p.kill('SIGKILL')
    await once(p, 'exit')
    this.#proc = undefined
  }

  async destroy (): Promise<void> { await this.stop() }
}
