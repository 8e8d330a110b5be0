// Reconnection with capped exponential backoff, end to end: a stdio server whose process
// exits at once is retried with growing, then capped, waits; without auto_reconnect it
// stays in error.
import t from 'tap'
import { startMcp } from './helpers.ts'
import { until } from '../helpers/poll.ts'

// A real child that exits as soon as it starts.
const dies = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ command: 'sh', args: ['-c', 'exit 3'], timeout: 5, ...extra })

t.test('a server that keeps dying is retried with waits that grow, then stay at the cap', async t => {
  const INITIAL = 50
  const CAP = 200
  const s = await startMcp(t, { dies: dies() }, { mcpOptions: { reconnect_initial_ms: INITIAL, reconnect_max_ms: CAP }, logLevel: 'info' })
  // Each retry is logged as it is scheduled, with its attempt and wait: the schedule is read
  // from there, whole, instead of sampled from GET /api/mcp/servers between two retries.
  const retries = (): Array<{ attempt: number, delay_ms: number }> =>
    s.logs.filter(l => l.mcp_server === 'dies' && l.msg === 'reconnecting after a delay') as unknown as Array<{ attempt: number, delay_ms: number }>
  await until('the ninth retry to be scheduled', () => retries().length >= 9, 30_000)
  const nine = retries().slice(0, 9)
  t.same(nine.map(r => r.attempt), [1, 2, 3, 4, 5, 6, 7, 8, 9], 'one retry per failed attempt, counted up')
  for (const { attempt, delay_ms: wait } of nine) {
    // initial * 2^(attempt - 1), plus up to 20% jitter, never past the cap.
    const base = Math.min(CAP, INITIAL * 2 ** (attempt - 1))
    t.ok(wait >= base && wait <= Math.min(CAP, Math.round(base * 1.2)), `attempt ${attempt} waits ${wait} ms (base ${base}, uncapped ${INITIAL * 2 ** (attempt - 1)})`)
  }
  t.same(nine.slice(2).map(r => r.delay_ms), new Array(7).fill(CAP), 'from the third attempt on, the cap')
  const row = await s.server('dies')
  t.equal(row?.status, 'error')
  t.match(row?.error, /connect failed/)
  t.ok((row?.reconnect_attempt ?? 0) >= 9, 'the row counts the attempts too')
})

t.test('without auto_reconnect a dead server stays in error and is not retried', async t => {
  const s = await startMcp(t, { once: dies({ auto_reconnect: false }) }, { mcpOptions: { reconnect_initial_ms: 50, reconnect_max_ms: 200 }, logLevel: 'info' })
  const row = await s.waitFor('once', x => x.status === 'error', 'error')
  t.match(row.error, /connect failed/)
  // A retry is scheduled in the same step that records the error, so the row that shows the
  // error would already show it (next_retry_at) and the log would hold its line.
  t.equal(row.next_retry_at, undefined)
  t.equal(row.reconnect_attempt, undefined)
  t.notOk(s.logs.some(l => l.mcp_server === 'once' && l.msg === 'reconnecting after a delay'), 'no retry logged')
  t.ok(s.logs.some(l => l.mcp_server === 'once' && /connect failed/.test(l.msg)), 'the failure itself was logged')
})
