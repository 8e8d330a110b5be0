// Reconnection with capped exponential backoff, end to end: a stdio server whose process
// exits at once is retried with growing, then capped, waits; without auto_reconnect it
// stays in error.
import t from 'tap'
import { startMcp, type ServerRow } from './helpers.ts'

// A real child that exits as soon as it starts.
const dies = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ command: 'sh', args: ['-c', 'exit 3'], timeout: 5, ...extra })

t.test('a server that keeps dying is retried with waits that grow, then stay at the cap', async t => {
  const INITIAL = 50
  const CAP = 200
  const s = await startMcp(t, { dies: dies() }, { mcpOptions: { reconnect_initial_ms: INITIAL, reconnect_max_ms: CAP } })
  // attempt -> next_retry_at (ms), as seen by polling.
  const seen = new Map<number, number>()
  const deadline = Date.now() + 20_000
  let last: ServerRow | undefined
  while (Date.now() < deadline && !(seen.has(8) && seen.has(9))) {
    last = await s.server('dies')
    if (last?.reconnect_attempt !== undefined && last.next_retry_at !== undefined && !seen.has(last.reconnect_attempt)) {
      seen.set(last.reconnect_attempt, Date.parse(last.next_retry_at))
    }
    await new Promise(resolve => setTimeout(resolve, 5))
  }
  t.ok(seen.has(8) && seen.has(9), `reached attempts 8 and 9 (uncapped, attempt 9 alone would wait ${INITIAL * 2 ** 8} ms); seen ${JSON.stringify([...seen])}`)
  t.equal(last?.status, 'error')
  t.match(last?.error, /connect failed/)
  const attempts = [...seen.keys()]
  t.same(attempts, [...attempts].sort((a, b) => a - b), 'reconnect_attempt only grows')
  // The gap between two scheduled retries is the time one failed try takes plus the wait.
  // From attempt 3 on the wait is the cap (50 * 2^2 = 200): uncapped, the gap from 8 to 9
  // would be over 12 s; capped it is the cap plus one quick failed try.
  const gaps: Array<[number, number]> = []
  for (const a of attempts) {
    const next = seen.get(a + 1)
    if (a >= 4 && next !== undefined) gaps.push([a + 1, next - seen.get(a)!])
  }
  t.ok(gaps.length >= 2, `consecutive attempts observed: ${JSON.stringify(gaps)}`)
  for (const [a, gap] of gaps) {
    t.ok(gap >= CAP, `gap before attempt ${a} (${gap} ms) includes the capped wait`)
    t.ok(gap < 1500, `gap before attempt ${a} (${gap} ms) is capped (uncapped: ${INITIAL * 2 ** (a - 1)} ms)`)
  }
})

t.test('without auto_reconnect a dead server stays in error and is not retried', async t => {
  const s = await startMcp(t, { once: dies({ auto_reconnect: false }) }, { mcpOptions: { reconnect_initial_ms: 50, reconnect_max_ms: 200 } })
  const row = await s.waitFor('once', x => x.status === 'error', 'error')
  t.match(row.error, /connect failed/)
  // Several would-be retry periods later: still error, nothing scheduled.
  await new Promise(resolve => setTimeout(resolve, 800))
  const after = await s.server('once')
  t.match(after, { status: 'error', error: /connect failed/ })
  t.equal(after?.next_retry_at, undefined)
  t.equal(after?.reconnect_attempt, undefined)
})
