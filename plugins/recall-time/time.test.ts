// The time technique: of the query's keyword and vector neighbours, the turns of the time
// it names, in their fused order; nothing (and no search) for a query naming no time.
// Store doubles only; test/memory/turn-dates.test.ts runs it on a real store.
import t from 'tap'
import { RECALL_DEFAULTS } from '../../test/helpers/recall-settings.ts'
import type { RelationalStore, Turn } from '@agentd/sdk/contracts/memory-stores'
import { timeTechnique } from './time.ts'

const turn = (id: string): Turn & { score: number } => ({ id, conversation_id: 'c', index: 0, timestamp: '2023-06-01T10:00:00.000Z', role: 'user', content: id, token_count: 1, metadata: {}, channel: 'work', embedder: null, score: 1 })
type Ask = { text: string, channels: string[], limit: number }

function store (): { rel: RelationalStore, asked: Ask[] } {
  const asked: Ask[] = []
  const rel: Partial<RelationalStore> = {
    // The date words find the turns of that month; the query's words its keyword neighbours.
    searchTurns: async q => { asked.push(q); return /^\d+$/.test(q.text) ? ['may-1', 'may-2', 'may-3'].map(turn) : ['june-1', 'may-2', 'may-1'].map(turn) },
    similarTurns: async () => ['may-3', 'june-2'].map(turn),
  }
  return { rel: rel as RelationalStore, asked }
}
const input = (query: string): Parameters<ReturnType<typeof timeTechnique>['run']>[0] =>
  ({ query, channel: 'work', channels: ['work', '_global'], top_k: 5, settings: RECALL_DEFAULTS, strict: false, embedding: { vector: [1, 0], embedder: 'test' } })

t.test('a query naming a month: its neighbours said in that month, fused', async t => {
  const s = store()
  const r = await timeTechnique(() => s.rel).run(input('What did Maria donate in May 2023?'))
  t.same(r.relevant_turns?.map(x => x.id).sort(), ['may-1', 'may-2', 'may-3'], 'June\'s neighbours are left out')
  t.equal(s.asked[0].text, '202305', 'the month\'s date word is searched')
})

t.test('a query naming no time: no list, no search', async t => {
  const s = store()
  const r = await timeTechnique(() => s.rel).run(input('What did Maria donate to the shelter?'))
  t.same(r.relevant_turns, [])
  t.same(s.asked, [])
})
