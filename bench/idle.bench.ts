// At rest (issue 43): agentd as `npm start` runs it (compiled, the start script's flags,
// the shipped plugins.json, embedded defaults: PGlite, the job scheduler on) against a bare
// Fastify hello world started the same way, both idle side by side in the same run:
//   - CPU while idle, ms of CPU (user + system, every thread) per second over 60 s,
//     from 5 s after health is ready: target <= 4 ms/s
//   - resident memory (VmRSS) 5 s after health is ready: target <= 160 MiB
//
// BENCH_IDLE_SECONDS=20 for a short run; BENCH_CPU_PROF=<dir> writes agentd's CPU profile
// of the idle window (and its start) there (node --cpu-prof), to see what wakes up.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { freePort } from '../test/helpers/net.ts'
import { agentdEnv, bareServer, buildIfStale, cpuMs, healthy, launch, rssMb, sleep, startArgs, status, stop, threadCpuMs, until, verdict, type Started } from './processes.ts'

const SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 60)
const PROF = process.env.BENCH_CPU_PROF
/** Node flags added to the start script's for agentd (to try one), e.g. BENCH_EXTRA_FLAGS=--wasm-lazy-compilation. */
const EXTRA = (process.env.BENCH_EXTRA_FLAGS ?? '').split(/\s+/).filter(Boolean)

async function main (): Promise<void> {
  buildIfStale()
  const tmp = mkdtempSync(path.join(tmpdir(), 'agentd-idle-bench-'))
  const bare = bareServer()
  const { flags, entry } = startArgs()
  const started: Started[] = []
  try {
    const b = launch([...flags, bare.file], {}, await freePort())
    started.push(b)
    const a = launch([...flags, ...EXTRA, ...(PROF === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${path.resolve(PROF)}`]), entry], agentdEnv(path.join(tmp, 'data')), await freePort())
    started.push(a)
    await until(async () => await status(b.port, '/api/index') === 200, 60_000)
    const readyMs = await healthy(a)
    await sleep(5000)
    const rss = { agentd: rssMb(a.child.pid!), bare: rssMb(b.child.pid!) }
    const cpu0 = { agentd: cpuMs(a.child.pid!), bare: cpuMs(b.child.pid!) }
    const threads0 = threadCpuMs(a.child.pid!)
    const t0 = performance.now()
    await sleep(SECONDS * 1000)
    const secs = (performance.now() - t0) / 1000
    const perSec = { agentd: (cpuMs(a.child.pid!) - cpu0.agentd) / secs, bare: (cpuMs(b.child.pid!) - cpu0.bare) / secs }
    const threads = [...threadCpuMs(a.child.pid!)].map(([name, ms]) => [name, (ms - (threads0.get(name) ?? 0)) / secs] as const).filter(([, v]) => v > 0)
    console.log(`health ready on a new data directory: ${readyMs.toFixed(0)} ms after spawn`)
    console.log(`idle CPU over ${secs.toFixed(0)} s: agentd ${perSec.agentd.toFixed(2)} ms/s, bare Fastify ${perSec.bare.toFixed(2)} ms/s (target agentd <= 4 ms/s): ${verdict(perSec.agentd <= 4)}`)
    console.log(`  agentd's idle CPU by thread: ${threads.map(([name, v]) => `${name} ${v.toFixed(2)}`).join(', ') || 'none'} (ms/s)`)
    console.log(`idle RSS 5 s after ready: agentd ${rss.agentd.toFixed(0)} MiB, bare Fastify ${rss.bare.toFixed(0)} MiB, ratio ${(rss.agentd / rss.bare).toFixed(2)}x (target agentd <= 160 MiB): ${verdict(rss.agentd <= 160)}`)
  } finally {
    for (const s of started) await stop(s)
    bare.remove()
    rmSync(tmp, { recursive: true, force: true })
  }
}

await main()
