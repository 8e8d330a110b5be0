// Unit tests of the memory service that need no database and no other plugin: the
// chat-facing calls without a store, and the rendering budget. (Embedder choice with the
// real embedders: test/memory/service-embedder.test.ts.)
import t from 'tap'
import pino from 'pino'
import { createRegistry, Hooks, type Registry } from '@agentd/sdk'
import { MemoryServiceImpl } from './service.ts'
import { renderBundle, estimateTokens } from './render.ts'

const opts = { tokenBudget: 1000, topK: 10, workingMemoryTurns: 20, recencyWeight: 0.2, recencyHalfLifeHours: 24 }
const log = pino({ level: 'silent' })

function service (reg: Registry, extra: Partial<typeof opts> & { embedder?: string, embeddingProvider?: string } = {}): MemoryServiceImpl {
  return new MemoryServiceImpl(() => reg, () => new Hooks(), log, { ...opts, ...extra })
}

t.test('no store: the chat-facing calls resolve and say why', async t => {
  const svc = service(createRegistry())
  const r = await svc.storeTurn({ conversation_id: 'c', role: 'user', content: 'x' })
  t.equal(r.stored, false)
  t.match(r.error, /memory-sql/)
  const bundle = await svc.recall({ text: 'x' })
  t.equal(bundle.context, '')
  const bad = await svc.storeTurn({ conversation_id: 'c', role: 'user', content: 'x', channel: '../etc' })
  t.equal(bad.stored, false)
  t.match(bad.error, /invalid/)
})

t.test('rendering keeps to the token budget and puts facts first', async t => {
  const bundle = {
    relevant_turns: Array.from({ length: 50 }, (_, i) => ({ role: 'user', content: `turn number ${i} with some words in it` })),
    facts: [{ claim: 'The user is vegetarian', temporal_context: 'current' as const }],
    entities: [], strategies: [], active_goals: [], user_context: {},
  }
  const text = renderBundle(bundle, 60)
  t.ok(estimateTokens(text) <= 60 + 15, `${estimateTokens(text)} tokens`)
  t.ok(text.indexOf('vegetarian') < text.indexOf('turn number'))
  t.equal(renderBundle({ ...bundle, relevant_turns: [], facts: [] }, 100), '')
})
