// A bench's servers as child processes pinned to one core (the load generator pinned to the
// other), each reporting its own CPU time over IPC: shared by the benches that compare two
// servers round by round (jobs, telemetry). On a shared host the two cores are not equally
// fast, so both servers run on the same one.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process'
import { availableParallelism } from 'node:os'
import path from 'node:path'

/** Pin with taskset where there are two or more cores and taskset exists. */
export const PIN = availableParallelism() >= 2 && (() => { try { execFileSync('taskset', ['-V'], { stdio: 'ignore' }); return true } catch { return false } })()

/** The load generator (this process) on core 0, the servers on core 1. */
export function pinSelf (): void {
  if (PIN) execFileSync('taskset', ['-cp', '0', String(process.pid)], { stdio: 'ignore' })
}

/** Runs `script` under tsx with `args` on core 1; resolves with the port it prints as its first line (`{"port":n}`). */
export async function startPinned (script: string, args: string[]): Promise<{ child: ChildProcess, port: number }> {
  // BENCH_CPU_PROF=<dir>: each server writes a V8 CPU profile there when it exits (200 us samples).
  const prof = process.env.BENCH_CPU_PROF === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${path.join(process.env.BENCH_CPU_PROF, args[0] ?? 'server')}`, `--cpu-prof-interval=${process.env.BENCH_CPU_PROF_INTERVAL ?? 200}`]
  const argv = [...prof, '--import=tsx', script, ...args]
  const child = PIN ? spawn('taskset', ['-c', '1', process.execPath, ...argv], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] }) : spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] })
  const port = await new Promise<number>((resolve, reject) => {
    let buf = ''
    child.stdout!.on('data', (d: Buffer) => { buf += d.toString(); const nl = buf.indexOf('\n'); if (nl >= 0) resolve((JSON.parse(buf.slice(0, nl)) as { port: number }).port) })
    child.once('exit', code => { reject(new Error(`${args[0] ?? script} exited ${code}`)) })
  })
  return { child, port }
}

/** In the child: answer the parent's 'cpu' question with this process's CPU time so far. */
export function answerCpuQueries (): void {
  process.on('message', (m: string) => { if (m === 'cpu') { const u = process.cpuUsage(); process.send?.({ cpu_us: u.user + u.system }) } })
}

/** The child's own CPU time (user + system, µs), asked over IPC: independent of the load generator's speed. */
export async function childCpuUs (child: ChildProcess): Promise<number> {
  return await new Promise(resolve => {
    const on = (m: { cpu_us?: number }): void => { if (m.cpu_us !== undefined) { child.off('message', on); resolve(m.cpu_us) } }
    child.on('message', on)
    child.send('cpu')
  })
}
