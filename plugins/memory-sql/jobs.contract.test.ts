// The relational store's support for later recall techniques and consolidation jobs, on
// every SQL backend: keyword search, unconsolidated conversations, re-embedding. (A
// channel deleted from both SQL stores in one transaction: test/memory/sql-stores-together.test.ts.)
import t from 'tap'
import { sql } from 'kysely'
import { SQL_BACKENDS } from '../../test/memory/sql-targets.ts'
import { axis } from '../../test/memory/vectors.ts'
import { SqlRelationalStore } from './relational-store.ts'

for (const backend of SQL_BACKENDS) {
  t.test(`relational store jobs on ${backend.name}`, async t => {
    const h = await backend.open(t)
    const store = new SqlRelationalStore(h)
    await store.init()

    t.test('keyword search: any word, best first, channel filtered; operators and quotes are plain text', async t => {
      const texts = ['the blue door is open', 'a red door', 'nothing here', "it's 100% O'Brien_s \\ café", 'blue blue sky']
      for (const c of texts) await store.addTurn({ conversation_id: 'kw', role: 'user', content: c, channel: 'kw' })
      await store.addTurn({ conversation_id: 'kw2', role: 'user', content: 'blue door elsewhere', channel: 'kw-other' })
      const find = async (q: string): Promise<string[]> => (await store.searchTurns({ text: q, channels: ['kw'], limit: 10 })).map(x => x.content)
      const blueDoor = await find('Blue door?')
      t.same(blueDoor.slice().sort(), ['a red door', 'blue blue sky', 'the blue door is open'], 'any of the words, this channel only')
      t.equal(blueDoor[0], 'the blue door is open', 'both words rank first')
      t.same(await find("O'Brien"), ["it's 100% O'Brien_s \\ café"], 'a quote splits words, it is not syntax')
      t.same(await find('CAFÉ'), ["it's 100% O'Brien_s \\ café"])
      for (const abuse of ["'; DROP TABLE turns; --", '%', '_', '\\', '!:*&|()', '', '   ']) {
        const r = await store.searchTurns({ text: abuse, channels: ['kw'], limit: 10 })
        t.ok(Array.isArray(r), `"${abuse}" answers`)
      }
      t.same(await find('%'), [], 'a % is not a wildcard')
      t.ok((await store.searchTurns({ text: 'door', channels: ['kw'], limit: 10 })).every(x => x.score > 0))
    })

    t.test('unconsolidated conversations: listed until marked, listed again after a new turn', async t => {
      await store.addTurn({ conversation_id: 'uc-1', role: 'user', content: 'one', channel: 'uc' })
      await store.addTurn({ conversation_id: 'uc-2', role: 'user', content: 'two', channel: 'uc' })
      const ids = async (): Promise<string[]> => (await store.unconsolidatedConversations({ limit: 1000 })).map(c => c.id).filter(id => id.startsWith('uc-'))
      t.same(await ids(), ['uc-1', 'uc-2'], 'least recently changed first')
      const first = (await store.unconsolidatedConversations({ limit: 1000 })).find(c => c.id === 'uc-1')
      t.match(first, { channel: 'uc', turn_count: 1, consolidated_at: null })
      t.same((await store.unconsolidatedConversations({ limit: 1000, idle_seconds: 3600 })).filter(c => c.id.startsWith('uc-')), [], 'none idle for an hour')
      t.equal(await store.markConsolidated(['uc-1', 'uc-2', 'no-such']), 2)
      t.same(await ids(), [])
      await new Promise(resolve => setTimeout(resolve, 5))
      await store.addTurn({ conversation_id: 'uc-2', role: 'assistant', content: 'more', channel: 'uc' })
      t.same(await ids(), ['uc-2'], 'a new turn makes it due again')
      t.equal(await store.resetConsolidation() >= 1, true)
      t.same(await ids(), ['uc-1', 'uc-2'])
      t.equal(await store.markConsolidated([]), 0)
    })

    t.test('stale vectors of turns, goals and strategies are listed with their text and replaced', async t => {
      const old = { vector: axis(8, 1), embedder: 'old-e' }
      await store.addTurn({ conversation_id: 'rt', role: 'user', content: 'turn text', channel: 'rt', embedding: old })
      await store.addGoal({ description: 'goal text', channel: 'rt', embedding: old })
      await store.addStrategy({ description: 'strategy', context_pattern: 'pattern', channel: 'rt', embedding: old })
      await store.addTurn({ conversation_id: 'rt', role: 'user', content: 'no vector', channel: 'rt' })
      const want = (x: { kind: string, text: string }): string => `${x.kind}:${x.text}`
      const stale = (await store.staleEmbeddings({ embedder: 'new-e', dimensions: 4, limit: 100 })).filter(x => ['turn text', 'goal text', 'strategy pattern'].includes(x.text))
      t.same(stale.map(want).sort(), ['goal:goal text', 'strategy:strategy pattern', 'turn:turn text'])
      t.equal((await store.staleEmbeddings({ embedder: 'new-e', dimensions: 4, limit: 1 })).length, 1, 'limit holds')
      const all = await store.staleEmbeddings({ embedder: 'new-e', dimensions: 4, limit: 1000 })
      // Resuming: past the first batch's last id per kind, the rest, each row once.
      const first = await store.staleEmbeddings({ embedder: 'new-e', dimensions: 4, limit: 2 })
      const after: Record<string, string> = {}
      for (const x of first) after[x.kind] = x.id
      const rest = await store.staleEmbeddings({ embedder: 'new-e', dimensions: 4, limit: 1000, after })
      t.same([...first, ...rest].map(want).sort(), all.map(want).sort(), 'first batch + resumed batch = all, none twice')
      const n = await store.setEmbeddings(all.map(x => ({ kind: x.kind, id: x.id, embedding: x.text === 'goal text' ? null : { vector: axis(4, 2), embedder: 'new-e' } })))
      t.equal(n, all.length)
      t.same(await store.staleEmbeddings({ embedder: 'new-e', dimensions: 4, limit: 10 }), [])
      const found = await store.similarTurns({ embedding: { vector: axis(4, 2), embedder: 'new-e' }, channels: ['rt'], limit: 5 })
      t.same(found.map(x => x.content), ['turn text'])
      t.equal(await store.setEmbeddings([{ kind: 'turn', id: 'not-a-uuid', embedding: null }]), 0, 'a bad id changes nothing')
    })
  })
}
