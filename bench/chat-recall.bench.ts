// What memory recall adds to a chat turn, with the recall techniques on (the defaults:
// hybrid, entity_centric, query_expansion, time) against the vector technique alone (every
// recall_enable_* off, as memory recalled before the techniques). One agentd in this
// process on the shipped plugins.json and embedded defaults, a fake OpenAI upstream on
// loopback. Three kinds of chat, interleaved so drift hits all alike:
//   none:   use_memory false (no recall, no store)
//   vector: use_memory true, techniques off
//   all:    use_memory true, the default techniques on
// Added latency = median(kind) - median(none). Target (issue 17): the chat path's added
// latency for recall unchanged within 20%, i.e. added(all) <= 1.2 x added(vector).
// What is stored and asked is the recall evaluation set (bench/recall-eval): its 1,300
// messages (with distractors) sent as chats with memory in their channels first, then its
// questions as the measured chats, so keyword search sees a real vocabulary rather than a
// template's (where every word is in every turn and each search ranks the whole channel).
// BENCH_ROUNDS (30) x BENCH_PER_ROUND (5) chats per kind.
import { loadEvalSet, withDistractors } from './recall-eval/dataset.ts'
import { startShipped } from './recall-eval/server.ts'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30)
const PER_ROUND = Number(process.env.BENCH_PER_ROUND ?? 5)
const TARGET = 1.2
const OFF = { recall_enable_hybrid: false, recall_enable_entity_centric: false, recall_enable_query_expansion: false, recall_enable_time: false }
const ON = { recall_enable_hybrid: true, recall_enable_entity_centric: true, recall_enable_query_expansion: true, recall_enable_time: true }
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

const set = withDistractors(loadEvalSet())

const { fake, post, close } = await startShipped(() => ({ text: 'noted, thanks' }))
try {
  const chat = async (message: string, channel: string, useMemory: boolean): Promise<number> => {
    const t0 = performance.now()
    const r = await post('/api/agent/chat', { message, use_memory: useMemory, channel })
    if (r.status !== 200) throw new Error(`chat: ${r.status} ${await r.text()}`)
    await r.arrayBuffer()
    fake.requests.length = 0 // the fake keeps what it saw; this bench measures agentd
    return performance.now() - t0
  }
  const settings = async (patch: Record<string, boolean>): Promise<void> => {
    const r = await post('/api/memory/recall-settings', patch)
    if (r.status !== 200) throw new Error(`recall-settings: ${r.status} ${await r.text()}`)
  }

  for (const turn of set.turns) await chat(turn.message, turn.channel, true)
  let n = 0
  const ask = async (useMemory: boolean): Promise<number> => {
    const q = set.questions[n++ % set.questions.length]
    return await chat(q.question, q.channel, useMemory)
  }
  const ms: Record<'none' | 'vector' | 'all', number[]> = { none: [], vector: [], all: [] }
  const kinds = ['none', 'vector', 'all'] as const
  for (let round = 0; round < ROUNDS; round++) {
    // Rotate the order each round so no kind always follows another.
    for (let k = 0; k < 3; k++) {
      const kind = kinds[(round + k) % 3]
      if (kind !== 'none') await settings(kind === 'all' ? ON : OFF)
      for (let i = 0; i < PER_ROUND; i++) ms[kind].push(await ask(kind !== 'none'))
    }
  }
  const none = median(ms.none)
  const vector = median(ms.vector) - none
  const all = median(ms.all) - none
  console.log(`chat latency, ${ROUNDS * PER_ROUND} questions per kind after ${set.turns.length} messages stored in ${set.channels.length} channels, medians:`)
  console.log(`  no memory                 ${none.toFixed(2)} ms`)
  console.log(`  memory, vector recall     ${median(ms.vector).toFixed(2)} ms (+${vector.toFixed(2)} ms)`)
  console.log(`  memory, all techniques    ${median(ms.all).toFixed(2)} ms (+${all.toFixed(2)} ms)`)
  const ratio = all / vector
  console.log(`TARGET added latency, techniques on / vector only <= ${TARGET}: ${ratio <= TARGET ? 'met' : 'NOT met'} (${ratio.toFixed(2)})`)
  if (ratio > TARGET) process.exitCode = 1
} finally {
  await close()
}
