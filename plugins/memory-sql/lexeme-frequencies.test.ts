// Keyword search learns which words are common from the planner statistics instead of
// counting their rows (lexeme-frequencies.ts): the shares it reads, their cache, and that
// the ranking of a search is the same with statistics as without.
import t, { type Test } from 'tap'
import { sql } from 'kysely'
import { openSql, type SqlHandle } from '@agentd/sdk/kits/sql'
import { SqlRelationalStore } from './relational-store.ts'
import { lexemeFrequencies, shareOf } from './lexeme-frequencies.ts'

const quiet = { warn: () => {} }

/**
 * 1,200 turns: "weather" in every other one (600, more than keyword search's COMMON of 500),
 * "marker3" in 1 of 13 (few enough to select candidates), "zebra" in one. Written once
 * through the store (never analyzed) and dumped; each test opens its own database from the
 * dump (~0.3 s against ~3 s of writing the turns again).
 */
async function filled (): Promise<Blob> {
  const h = await openSql({ backend: 'pglite', dir: null, schema: 'public' }, quiet)
  try {
    const s = new SqlRelationalStore(h)
    await s.init()
    const contents = Array.from({ length: 1200 }, (_, i) => `${i % 2 === 0 ? 'the weather was' : 'we talked about'} ${i === 21 ? 'zebra' : 'plain'} with marker${i % 13}`)
    for (let i = 0; i < contents.length; i += 100) {
      const batch = contents.slice(i, i + 100)
      await Promise.all(batch.map(async (content, j) => await s.addTurn({ conversation_id: `c${Math.floor((i + j) / 100)}`, role: 'user', content, channel: 'lx' })))
    }
    if (h.backend !== 'pglite') throw new Error('expected PGlite')
    return await h.pglite.dumpDataDir('none')
  } finally {
    await h.close()
  }
}

let dump: Promise<Blob> | undefined
async function store (t: Test): Promise<{ h: SqlHandle, s: SqlRelationalStore }> {
  dump ??= filled()
  const h = await openSql({ backend: 'pglite', dir: null, schema: 'public', load: await dump }, quiet)
  t.teardown(async () => { await h.close() })
  const s = new SqlRelationalStore(h)
  await s.init()
  return { h, s }
}

t.test('shareOf: a whole word by its lexeme, a prefix by the most frequent lexeme it starts', async t => {
  const freqs = new Map([['adopt', 0.1], ['adopted', 0.3], ['dog', 0.2]])
  t.equal(shareOf(freqs, 'dog'), 0.2)
  t.equal(shareOf(freqs, 'adopt:*'), 0.3)
  t.equal(shareOf(freqs, 'cat'), 0, 'not listed: rarer than every listed lexeme')
  t.equal(shareOf(freqs, 'xyz:*'), 0)
})

t.test('a table never analyzed has no statistics: every word is counted', async t => {
  const { h } = await store(t)
  t.equal((await lexemeFrequencies(h.db)).shares.size, 0)
})

t.test('after ANALYZE the common word is listed with its share of the turns', async t => {
  const { h } = await store(t)
  await sql`ANALYZE turns`.execute(h.db)
  const { shares: freqs, turns } = await lexemeFrequencies(h.db)
  t.equal(turns, 1200, 'and the turns they were taken over')
  t.ok(Math.abs((freqs.get('weather') ?? 0) - 0.5) < 0.05, `weather in half the turns (${freqs.get('weather')})`)
  t.ok((freqs.get('zebra') ?? 0) < 0.01, 'a word of one turn: listed, if at all, as rare')
})

t.test('the statistics are read once a minute, the stale answer served while they are read again', async t => {
  const { h } = await store(t)
  const first = await lexemeFrequencies(h.db)
  t.equal(first.shares.size, 0)
  await sql`ANALYZE turns`.execute(h.db)
  t.equal((await lexemeFrequencies(h.db)).shares.size, 0, 'within the minute: the cached answer')
  const later = Date.now() + 61_000
  t.equal((await lexemeFrequencies(h.db, later)).shares.size, 0, 'stale: served at once while it is read again')
  // The refresh runs on the same connection: a query after it sees it done.
  await sql`SELECT 1`.execute(h.db)
  t.ok((await lexemeFrequencies(h.db, later)).shares.has('weather'), 'then the new statistics')
})

t.test('a search ranks the same with statistics as without, the common word scoring but not counted', async t => {
  const { h, s } = await store(t)
  const search = async (): Promise<string[]> => (await s.searchTurns({ text: 'weather marker3 zebra', channels: ['lx'], limit: 10 })).map(r => r.content)
  const before = await search()
  t.equal(before[0], 'we talked about zebra with marker8', 'the rarest word first')
  await sql`ANALYZE turns`.execute(h.db)
  await lexemeFrequencies(h.db, Date.now() + 61_000)
  await sql`SELECT 1`.execute(h.db)
  t.ok((await lexemeFrequencies(h.db)).shares.has('weather'), 'the statistics are in use')
  t.same(await search(), before)
})
