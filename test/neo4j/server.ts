// A real, throw-away Neo4j 5 for tests and benches: test/neo4j/launcher (one Java class,
// built with Maven) runs Neo4j servers in-process in one JVM, so the JVM's start is paid
// once per `tap` run: the first file that asks starts the launcher (a lock folder keyed by
// the run's runner process decides which), every file gets its own empty server from it, and the launcher
// exits by itself when the tap process does. Outside tap (a bench, `node x.test.ts`) the
// launcher belongs to this process and exits with it.
//
// Without Java or Maven: on CI (CI=true) the tests fail with what to install; on a
// developer's machine they are skipped with the same message (`neo4jSkip`).
import { spawn, spawnSync } from 'node:child_process'
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Test } from 'tap'

export const LAUNCHER_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'launcher')
const JAR = path.join(LAUNCHER_DIR, 'target', 'neo4j-launcher-1.jar')
const CLASSPATH = path.join(LAUNCHER_DIR, 'target', 'classpath.txt')
const SOURCES = [path.join(LAUNCHER_DIR, 'pom.xml'), path.join(LAUNCHER_DIR, 'src/main/java/agentd/test/Neo4jLauncher.java')]
/** How long the first server may take: a cold JVM on two busy cores. */
const START_TIMEOUT_MS = 180_000

const isCI = (): boolean => process.env.CI === 'true' || process.env.CI === '1'
const java = (): string => process.env.JAVA_HOME !== undefined && process.env.JAVA_HOME !== '' ? path.join(process.env.JAVA_HOME, 'bin', 'java') : 'java'
const runs = (cmd: string, args: string[]): boolean => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0

/** The launcher is built and every jar its class path names is still in Maven's cache. */
function built (): boolean {
  if (!existsSync(JAR) || !existsSync(CLASSPATH)) return false
  const at = statSync(JAR).mtimeMs
  if (SOURCES.some(f => statSync(f).mtimeMs > at)) return false
  return readFileSync(CLASSPATH, 'utf8').trim().split(path.delimiter).every(j => existsSync(j))
}

/** Why no Neo4j can be started here, or undefined when it can. */
export function neo4jMissing (): string | undefined {
  if (!runs(java(), ['-version'])) return `no Java: \`${java()} -version\` failed. Neo4j 5.26 needs Java 17 or 21 (Debian: apt-get install openjdk-17-jdk-headless maven), or set JAVA_HOME.`
  if (!built() && !runs('mvn', ['-v'])) return 'the Neo4j test launcher is not built and Maven is missing (Debian: apt-get install maven; then `mvn -q -f test/neo4j/launcher/pom.xml package`).'
  return undefined
}

/**
 * For `t.test(name, { skip: neo4jSkip() }, ...)`: the reason to skip on a developer's
 * machine without Java or Maven; never on CI, where the test then fails with that reason.
 */
export function neo4jSkip (): string | false {
  const why = neo4jMissing()
  return why === undefined || isCI() ? false : `no Neo4j for this test: ${why}`
}

/** Builds the launcher when its sources are newer than its jar (Maven offline first: its cache usually has everything). */
export function buildLauncher (): void {
  if (built()) return
  const pom = path.join(LAUNCHER_DIR, 'pom.xml')
  for (const offline of [true, false]) {
    const r = spawnSync('mvn', ['-q', '-B', ...(offline ? ['-o'] : []), '-f', pom, 'package'], { encoding: 'utf8' })
    // Maven leaves an up-to-date jar as it is: mark it as newer than the sources it was checked against.
    if (r.status === 0 && existsSync(JAR)) utimesSync(JAR, new Date(), new Date())
    if (r.status === 0 && built()) return
    if (!offline) {
      throw new Error(`Building the Neo4j test launcher failed (mvn -f ${pom} package): Maven could not fetch Neo4j from Maven Central or compile the launcher.\n${(r.stdout + r.stderr).split('\n').slice(-25).join('\n')}`)
    }
  }
}

interface RunInfo { dir: string, owner: number }

/**
 * Under tap: one launcher per run, owned by the runner (every test file's parent), its folder
 * named after the runner's pid and start time (a pid alone may be reused). Not tap's process
 * info "root": each test file is a root of its own, which gave every Neo4j file a JVM of its
 * own (four cold JVMs a suite, ~100 s of CPU). Otherwise this process's own launcher.
 */
function runInfo (): RunInfo {
  if (process.env.TAP === '1') {
    const runner = process.ppid
    let started = ''
    // Field 22 of /proc/PID/stat, after the command in parentheses (which may hold spaces).
    try { started = readFileSync(`/proc/${runner}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[19] ?? '' } catch { /* not Linux */ }
    return { dir: path.join(tmpdir(), `agentd-neo4j-run-${runner}-${started}`), owner: runner }
  }
  return { dir: path.join(tmpdir(), `agentd-neo4j-pid-${process.pid}`), owner: process.pid }
}

const alive = (pid: number): boolean => {
  try { process.kill(pid, 0); return true } catch (err) { return (err as NodeJS.ErrnoException).code === 'EPERM' }
}
const sleep = async (ms: number): Promise<void> => { await new Promise(resolve => setTimeout(resolve, ms)) }

export interface LauncherOptions {
  /** Full JIT and a larger heap (benches); tests start faster with the C1 compiler only. */
  bench?: boolean
}

/** The launcher's control port, starting it when this is the first asker of the run. */
async function controlPort (opts: LauncherOptions): Promise<number> {
  const { dir, owner } = runInfo()
  const portFile = path.join(dir, 'port')
  const pidFile = path.join(dir, 'launcher.pid')
  const logFile = path.join(dir, 'launcher.log')
  let starter = false
  try { mkdirSync(dir); starter = true } catch (err) { if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err }
  if (starter) {
    try {
      const missing = neo4jMissing()
      if (missing !== undefined) throw new Error(missing)
      buildLauncher()
      const cp = `${JAR}${path.delimiter}${readFileSync(CLASSPATH, 'utf8').trim()}`
      const jvm = opts.bench === true ? ['-Xmx2g', '-XX:+UseParallelGC'] : ['-Xmx768m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1']
      const log = openSync(logFile, 'a')
      // Detached: under tap it outlives this file and serves the next ones; it watches its owner's pid.
      const child = spawn(java(), [...jvm, '-cp', cp, 'agentd.test.Neo4jLauncher', 'serve', dir, String(owner)], { detached: true, stdio: ['ignore', log, log] })
      closeSync(log)
      child.unref()
      writeFileSync(pidFile, String(child.pid))
    } catch (err) {
      writeFileSync(path.join(dir, 'error'), (err as Error).message)
      throw err
    }
  }
  const deadline = Date.now() + START_TIMEOUT_MS
  for (;;) {
    if (existsSync(portFile)) return Number(readFileSync(portFile, 'utf8'))
    const error = path.join(dir, 'error')
    if (existsSync(error)) throw new Error(`The Neo4j test launcher could not start: ${readFileSync(error, 'utf8')}`)
    const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : undefined
    if (pid !== undefined && !alive(pid)) {
      const tail = existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').filter(l => !/^\s+at /.test(l)).slice(-15).join('\n') : '(no log)'
      throw new Error(`The Neo4j test launcher (pid ${pid}) exited before it was ready; its log (${logFile}):\n${tail}`)
    }
    if (Date.now() > deadline) throw new Error(`The Neo4j test launcher did not get ready within ${START_TIMEOUT_MS / 1000} s; see ${logFile}.`)
    await sleep(100)
  }
}

/** A line-based conversation with the launcher: one request, one answer. */
class Control {
  readonly #socket: Socket
  readonly #lines: string[] = []
  #buffer = ''
  #wake: (() => void) | undefined
  #closed = false

  constructor (socket: Socket) {
    this.#socket = socket
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => {
      this.#buffer += chunk
      for (let i = this.#buffer.indexOf('\n'); i >= 0; i = this.#buffer.indexOf('\n')) {
        this.#lines.push(this.#buffer.slice(0, i))
        this.#buffer = this.#buffer.slice(i + 1)
      }
      this.#wake?.()
    })
    socket.on('close', () => { this.#closed = true; this.#wake?.() })
    socket.on('error', () => {})
  }

  async ask (command: string): Promise<string> {
    this.#socket.write(`${command}\n`)
    while (this.#lines.length === 0) {
      if (this.#closed) throw new Error(`The Neo4j test launcher closed the connection during "${command}".`)
      await new Promise<void>(resolve => { this.#wake = resolve })
    }
    const line = this.#lines.shift() ?? ''
    if (line.startsWith('error ')) throw new Error(`The Neo4j test launcher could not ${command}: ${line.slice(6)}`)
    return line
  }

  close (): void { this.#socket.end() }
}

export interface LiveNeo4j {
  uri: string
  user: string
  password: string
  /** NEO4J_URI, NEO4J_USER, NEO4J_PASSWORD as agentd reads them. */
  env: Record<string, string>
  /** Shuts the server down (its data kept; connections see it gone). */
  stop: () => Promise<void>
  /** Starts it again on the same port with the same data. */
  resume: () => Promise<void>
  close: () => void
}

/** A new, empty Neo4j server of its own; closed when `t` ends (or this process does). */
export async function liveNeo4j (t: Test | undefined, opts: LauncherOptions = {}): Promise<LiveNeo4j> {
  const port = await controlPort(opts)
  const socket = connect(port, '127.0.0.1')
  await new Promise<void>((resolve, reject) => { socket.once('connect', resolve); socket.once('error', reject) })
  const control = new Control(socket)
  const answer = await control.ask('start')
  socket.unref()
  const uri = answer.replace(/^uri /, '')
  // Authentication is off on these servers: any user and password are accepted.
  const user = 'neo4j'
  const password = 'agentd-test'
  const server: LiveNeo4j = {
    uri,
    user,
    password,
    env: { NEO4J_URI: uri, NEO4J_USER: user, NEO4J_PASSWORD: password },
    stop: async () => { await control.ask('stop') },
    resume: async () => { await control.ask('resume') },
    close: () => { control.close() },
  }
  t?.teardown(() => { server.close() })
  return server
}
