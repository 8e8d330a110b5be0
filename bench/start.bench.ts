// Start-up and footprint, as a user starts agentd (`npm start`: compiled JavaScript with
// the start script's Node flags, the shipped plugins.json, embedded defaults), against a
// bare Fastify hello-world started the same way (node on a .mjs file) in the same run. Targets (issue 23):
//   - time to the first 200 from /api/index within 2x of bare Fastify (median of rounds)
//   - time until /api/health reports ready with every section up, on a new data
//     directory, under 2 s
//   - resident memory (VmRSS) 5 s after health is ready at most 160 MiB, and after 1,000
//     chats with memory (against a fake OpenAI upstream on loopback) at most 300 MiB (issue 43)
//
// Short run: BENCH_ROUNDS=2 BENCH_FRESH=1 BENCH_CHATS=200 npx tsx bench/start.bench.ts
import { mkdtempSync, rmSync } from 'node:fs'
import { freePort } from '../test/helpers/net.ts'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { FakeOpenAI } from '../test/fakes/openai-upstream.ts'
import { agentdEnv, bareServer, buildIfStale, cpuMs, healthy, launch, median, rssMb, sleep, startArgs, status, stop, until, verdict, type Started } from './processes.ts'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const CHATS = Number(process.env.BENCH_CHATS ?? 1000)
const FRESH = Number(process.env.BENCH_FRESH ?? 3)

async function firstIndex (s: Started): Promise<number> {
  await until(async () => await status(s.port, '/api/index') === 200, 60_000)
  return performance.now() - s.spawnedAt
}

const { flags, entry } = startArgs()
const AGENTD = [...flags, entry]

async function main (): Promise<void> {
  buildIfStale()
  const tmp = mkdtempSync(path.join(tmpdir(), 'agentd-start-bench-'))
  const bare = bareServer()
  try {
    // 1. Time to the first 200 from /api/index, alternating the two servers (ABAB...).
    const bareMs: number[] = []
    const agentdMs: number[] = []
    for (let i = 0; i < ROUNDS; i++) {
      const b = launch([bare.file], {}, await freePort())
      bareMs.push(await firstIndex(b))
      await stop(b)
      const a = launch(AGENTD, agentdEnv(path.join(tmp, `index-${i}`)), await freePort())
      agentdMs.push(await firstIndex(a))
      await stop(a)
    }
    const ratio = median(agentdMs) / median(bareMs)
    console.log(`first 200 from /api/index: agentd median ${median(agentdMs).toFixed(0)} ms (${agentdMs.map(x => x.toFixed(0)).join(', ')}), bare Fastify ${median(bareMs).toFixed(0)} ms (${bareMs.map(x => x.toFixed(0)).join(', ')})`)
    console.log(`  ratio ${ratio.toFixed(2)}x (target <= 2x): ${verdict(ratio <= 2)}`)

    // 2. Until health is ready with every section up, on a new data directory; then idle
    // RSS. Several fresh starts (medians): one sample swings by a few hundred ms and MB.
    const fake = await new FakeOpenAI({ fallback: () => ({ text: 'noted, thanks' }) }).start()
    const readyMs: number[] = []
    // CPU time (every thread) the start took: on a loaded machine the wall time until ready
    // mostly measures the other processes; this does not.
    const readyCpuMs: number[] = []
    const idleMb: number[] = []
    let a: Started | undefined
    try {
      for (let i = 0; i < FRESH; i++) {
        if (a !== undefined) await stop(a)
        const env = agentdEnv(path.join(tmp, `fresh-${i}`), { OPENAI_API_KEY: 'bench', OPENAI_BASE_URL: fake.url, DEFAULT_MODEL: 'openai/gpt-4o-mini' })
        const s: Started = a = launch(AGENTD, env, await freePort())
        readyMs.push(await healthy(s))
        readyCpuMs.push(cpuMs(s.child.pid!))
        await sleep(5000)
        idleMb.push(rssMb(s.child.pid!))
      }
      const ready = median(readyMs)
      const idle = median(idleMb)
      console.log(`health ready with every section up, new data directory: median ${ready.toFixed(0)} ms after spawn (${readyMs.map(x => x.toFixed(0)).join(', ')}) (target < 2000 ms): ${verdict(ready < 2000)}`)
      console.log(`  CPU used until then: median ${median(readyCpuMs).toFixed(0)} ms (${readyCpuMs.map(x => x.toFixed(0)).join(', ')})`)
      console.log(`idle RSS 5 s after ready: median ${idle.toFixed(0)} MiB (${idleMb.map(x => x.toFixed(0)).join(', ')}) (target <= 160 MiB): ${verdict(idle <= 160)}`)
      if (a === undefined) throw new Error('BENCH_FRESH must be at least 1')
      const port = a.port
      const pid = a.child.pid!

      // 3. 1,000 chats with memory, a few sessions and channels, one at a time.
      const chatsStarted = performance.now()
      for (let i = 0; i < CHATS; i++) {
        const r = await fetch(`http://127.0.0.1:${port}/api/agent/chat`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ message: `Note ${i}: I met Dana at the Lisbon office on day ${i % 30}.`, use_memory: true, channel: `c${i % 4}` }),
        })
        if (r.status !== 200) throw new Error(`chat ${i}: ${r.status} ${await r.text()}`)
        fake.requests.length = 0 // the fake keeps what it saw; this bench measures agentd
      }
      const chatsMs = performance.now() - chatsStarted
      await sleep(3000)
      const after = rssMb(pid)
      console.log(`${CHATS} chats with memory, one at a time: ${(chatsMs / 1000).toFixed(1)} s (${(chatsMs / CHATS).toFixed(1)} ms a chat; the Node flags' cost on throughput, not a target)`)
      console.log(`RSS after ${CHATS} chats with memory: ${after.toFixed(0)} MiB (target <= 300 MiB): ${verdict(after <= 300)}`)
    } finally {
      if (a !== undefined) await stop(a)
      await fake.close()
    }
  } finally {
    bare.remove()
    rmSync(tmp, { recursive: true, force: true })
  }
}

await main()
