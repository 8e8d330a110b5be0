// Keyword searches started together (a recall's hybrid and query_expansion) share their
// statements (keyword-search.ts); each must still rank as it would alone, on every backend.
import t from 'tap'
import { SQL_BACKENDS } from '../../test/memory/sql-targets.ts'
import { sql } from 'kysely'
import { SqlRelationalStore } from './relational-store.ts'
import { plainTerm } from './keyword-search.ts'
import { parseTermQuery } from './bm25.ts'
import { turnsRemoved } from './channel-sizes.ts'
import { ensureSchema, migrate } from '@agentd/sdk/kits/sql'
import { relationalMigrations } from './migrations.ts'

const TEXTS = [
  '[3 June 2024] Alex: We finally adopted a dog last weekend.',
  '[4 June 2024] Sam: The puppy chewed my running shoes.',
  '[5 June 2024] Alex: I signed up for the Lisbon marathon in October.',
  '[6 June 2024] Sam: My sister moved to Porto for work.',
  '[7 June 2024] Alex: The dog sleeps on the sofa now.',
  '[8 June 2024] Sam: Training runs are getting longer.',
]

for (const backend of SQL_BACKENDS) {
  t.test(`searches started together rank as each does alone, on ${backend.name}`, async t => {
    const store = new SqlRelationalStore(await backend.open(t))
    await store.init()
    for (const [i, content] of TEXTS.entries()) await store.addTurn({ conversation_id: `c${i % 2}`, role: 'user', content, channel: 'ks' })
    await store.addTurn({ conversation_id: 'other', role: 'user', content: 'a dog elsewhere', channel: 'ks-other' })
    const queries = [
      { text: 'When did Alex adopt the dog?', channels: ['ks'], limit: 3 },
      { text: 'dog puppy pet adopted', channels: ['ks'], limit: 5 },
      { text: 'marathon race running', channels: ['ks', 'ks-other'], limit: 4 },
    ]
    const alone = []
    for (const q of queries) alone.push(await store.searchTurns(q))
    const together = await Promise.all(queries.map(async q => await store.searchTurns(q)))
    t.same(together.map(r => r.map(x => [x.content, x.score])), alone.map(r => r.map(x => [x.content, x.score])))
    t.equal(alone[0][0].content, TEXTS[0], 'the turn with the rarest words first')
    t.ok(alone[1].length <= 5 && alone[0].length <= 3, 'each search cut to its own limit')
  })
}

t.test('searches started together on the same channels share one statement (PGlite)', async t => {
  const h = await SQL_BACKENDS[0].open(t)
  const store = new SqlRelationalStore(h)
  await store.init()
  for (const [i, content] of TEXTS.entries()) await store.addTurn({ conversation_id: `c${i}`, role: 'user', content, channel: 'ks' })
  await store.searchTurns({ text: 'warm up', channels: ['ks'], limit: 1 }) // the statistics read, once per handle
  if (h.backend !== 'pglite') throw new Error('expected PGlite')
  const pglite = h.pglite
  const seen: string[] = []
  const query = pglite.query.bind(pglite)
  pglite.query = (async (text: string, params?: unknown[], opts?: Parameters<typeof query>[2]) => {
    seen.push(text)
    return await query(text, params, opts)
  }) as typeof pglite.query
  t.teardown(() => { pglite.query = query })
  const [a, b] = await Promise.all([
    store.searchTurns({ text: 'adopted dog', channels: ['ks'], limit: 3 }),
    store.searchTurns({ text: 'marathon running shoes', channels: ['ks'], limit: 3 }),
  ])
  t.equal(seen.length, 1, `the candidates with their whole rows: ${seen.map(s => s.slice(0, 40)).join(' | ')}`)
  t.equal(a[0].content, TEXTS[0])
  t.match(b[0].content, /marathon|running/)
})

for (const backend of SQL_BACKENDS) {
  t.test(`a word normalized without asking is what the database makes of it, on ${backend.name}`, async t => {
    const h = await backend.open(t)
    const plain = ['dog', 'adopt:*', 'x', '2024', '007', 'marathon:*', '12345678901234567890']
    for (const w of plain) {
      const r = await sql<{ q: string }>`SELECT to_tsquery('simple', ${w})::text AS q`.execute(h.db)
      t.same(plainTerm(w), parseTermQuery(r.rows[0].q), w)
    }
    // The parser splits "12e3x" into a number and a word; a letter outside ASCII depends on the locale.
    for (const w of ['12e3x', '1e5e5', 'über', 'mp3', 'naïve:*']) t.equal(plainTerm(w), undefined, `${w} is asked`)
  })
}

t.test("keyword search's channel sizes follow the store's own writes: scores equal a fresh database's", async t => {
  const all = [...TEXTS, 'Sam: the weather was grey', 'Alex: lunch was fine', 'Sam: nothing new today']
  const q = { text: 'When did Alex adopt the dog?', channels: ['ks'], limit: 4 }
  const kept = new SqlRelationalStore(await SQL_BACKENDS[0].open(t))
  await kept.init()
  for (const [i, content] of TEXTS.entries()) await kept.addTurn({ conversation_id: `c${i}`, role: 'user', content, channel: 'ks' })
  await kept.searchTurns(q) // reads the size
  for (const [i, content] of all.slice(TEXTS.length).entries()) await kept.addTurn({ conversation_id: `d${i}`, role: 'user', content, channel: 'ks' })
  await kept.addTurn({ conversation_id: 'gone', role: 'user', content: 'the dog again', channel: 'ks' })
  const afterAdds = await kept.searchTurns(q)
  await kept.deleteConversation('gone')
  const afterDelete = await kept.searchTurns(q)

  const score = async (texts: string[]): Promise<Array<[string, number]>> => {
    const fresh = new SqlRelationalStore(await SQL_BACKENDS[0].open(t))
    await fresh.init()
    for (const [i, content] of texts.entries()) await fresh.addTurn({ conversation_id: `f${i}`, role: 'user', content, channel: 'ks' })
    return (await fresh.searchTurns(q)).map(x => [x.content, x.score])
  }
  t.same(afterAdds.map(x => [x.content, x.score]), await score([...all, 'the dog again']), 'added turns counted')
  t.same(afterDelete.map(x => [x.content, x.score]), await score(all), 'deleted turns no longer counted')
})

for (const backend of SQL_BACKENDS) {
  t.test(`a word counted in many of the channel's turns stops selecting candidates but still scores, on ${backend.name}`, async t => {
    const store = new SqlRelationalStore(await backend.open(t))
    await store.init()
    // 'alex' in 300 of 600 turns, 'zebra' in three of them and in one turn without 'alex'.
    const texts = Array.from({ length: 600 }, (_, i) => i % 2 === 0 ? `Alex: note number w${i}` : `Sam: reply w${i}`)
    texts[10] = 'Alex: I saw a zebra at the zoo'
    texts[20] = 'Alex: the zebra had stripes'
    texts[30] = 'Alex: a zebra again'
    texts[31] = 'Sam: zebra crossing'
    for (let i = 0; i < texts.length; i += 50) {
      await Promise.all(texts.slice(i, i + 50).map(async (content, k) => await store.addTurn({ conversation_id: `c${i + k}`, role: 'user', content, channel: 'wc' })))
    }
    const q = { text: 'alex zebra', channels: ['wc'], limit: 10 }
    const first = await store.searchTurns(q) // counts 'alex' (300 turns) and 'zebra' (4)
    const next = await store.searchTurns(q)
    t.equal(first.length, 10, 'first: every turn with either word was a candidate')
    t.same(next.map(x => x.content).sort(), [texts[10], texts[20], texts[30], texts[31]].sort(), 'then only the turns with the rarer word')
    t.same(next.map(x => x.content), first.slice(0, 4).map(x => x.content), 'ranked as before (scores move a little: turn length is weighed against the candidates\' mean)')
  })
}

// Where other processes write (PostgreSQL shared by a cluster). On PGlite the process owns
// the database and every turn goes through the store: its sizes are kept without a stat.
for (const backend of SQL_BACKENDS.filter(b => b.name !== 'pglite')) {
  t.test(`turns written behind the store's back are counted by the next search once the table has grown, on ${backend.name}`, async t => {
    const h = await backend.open(t)
    const store = new SqlRelationalStore(h)
    await store.init()
    for (const [i, content] of TEXTS.entries()) await store.addTurn({ conversation_id: `c${i}`, role: 'user', content, channel: 'ks' })
    const q = { text: 'When did Alex adopt the dog?', channels: ['ks'], limit: 3 }
    await store.searchTurns(q) // reads the channel's size
    // Another process's import: 2,000 turns the store never saw.
    await sql`INSERT INTO conversations (id, channel, turn_count) VALUES ('bulk', 'ks', 2000)`.execute(h.db)
    await sql`INSERT INTO turns (id, conversation_id, idx, role, content, channel)
      SELECT gen_random_uuid(), 'bulk', i, 'user', 'imported line ' || i, 'ks' FROM generate_series(0, 1999) AS i`.execute(h.db)
    const next = await store.searchTurns(q)
    turnsRemoved(h.db) // what a delete does: every size read again
    const reread = await store.searchTurns(q)
    t.same(next.map(x => [x.content, x.score]), reread.map(x => [x.content, x.score]))
  })
}

for (const backend of SQL_BACKENDS) {
  t.test(`a turn is found by the words of the turn it answers, below a turn saying them, on ${backend.name}`, async t => {
    const store = new SqlRelationalStore(await backend.open(t))
    await store.init()
    await store.addTurn({ conversation_id: 'trip', role: 'user', content: 'How long were you stuck at the airport?', channel: 'kc' })
    await store.addTurn({ conversation_id: 'trip', role: 'user', content: 'Two nights in a tiny hotel.', channel: 'kc', context: 'long stuck airport' })
    await store.addTurn({ conversation_id: 'other', role: 'user', content: 'I got stuck in traffic downtown.', channel: 'kc' })
    for (let i = 0; i < 6; i++) await store.addTurn({ conversation_id: `filler${i}`, role: 'user', content: `Filler number ${i} about gardening and soup.`, channel: 'kc' })
    const found = await store.searchTurns({ text: 'stuck', channels: ['kc'], limit: 5 })
    const order = found.map(x => x.content)
    t.ok(order.includes('Two nights in a tiny hotel.'), `the answer is found by its context: ${order.join(' | ')}`)
    t.ok(order.indexOf('I got stuck in traffic downtown.') < order.indexOf('Two nights in a tiny hotel.'), 'a turn saying the word ranks above one answering it')
    const byOwn = await store.searchTurns({ text: 'hotel', channels: ['kc'], limit: 5 })
    t.same(byOwn.map(x => x.content), ['Two nights in a tiny hotel.'], 'its own words still find it')
    t.notOk('context' in found[0], 'the context is not part of a returned turn')
  })
}

for (const backend of SQL_BACKENDS) {
  t.test(`a database written before the keyword context (migration 8) keeps its turns searchable by their own words, on ${backend.name}`, async t => {
    const h = await backend.open(t)
    await ensureSchema(h) // the test's own schema on PostgreSQL, as the store's init makes it
    await migrate(h.db, 'relational', relationalMigrations.filter(m => m.version < 8), { vectorType: 'real[]' })
    await sql`INSERT INTO conversations (id, channel, turn_count) VALUES ('old', 'up', 2)`.execute(h.db)
    await sql`INSERT INTO turns (id, conversation_id, idx, role, content, channel) VALUES
      (gen_random_uuid(), 'old', 0, 'user', 'How long were you stuck at the airport?', 'up'),
      (gen_random_uuid(), 'old', 1, 'user', 'Two nights in a tiny hotel.', 'up')`.execute(h.db)
    const store = new SqlRelationalStore(h)
    await store.init()
    const applied = await sql<{ n: number }>`SELECT max(version)::int AS n FROM agentd_migrations WHERE component = 'relational'`.execute(h.db)
    t.equal(applied.rows[0].n, 8)
    t.same((await store.searchTurns({ text: 'hotel', channels: ['up'], limit: 5 })).map(x => x.content), ['Two nights in a tiny hotel.'])
    t.same((await store.searchTurns({ text: 'stuck', channels: ['up'], limit: 5 })).map(x => x.content), ['How long were you stuck at the airport?'], 'no context for turns written before it')
    await store.addTurn({ conversation_id: 'old', role: 'user', content: 'The airline paid for the hotel.', channel: 'up', context: 'nights tiny hotel' })
    t.same((await store.searchTurns({ text: 'nights', channels: ['up'], limit: 5 })).map(x => x.content), ['Two nights in a tiny hotel.', 'The airline paid for the hotel.'], 'a new turn takes its context')
  })
}
