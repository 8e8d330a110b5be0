// An audit entry as a history entry: the actor recorded with it, else one read from the
// action (entries written before actors were recorded: `promote` is promotion, anything
// else system); an actor that is not one of the five is system too.
import t from 'tap'
import { toHistory } from './history.ts'

const entry = (action: string, details: Record<string, unknown>): Parameters<typeof toHistory>[0] => ({ at: '2026-01-01T00:00:00.000Z', action, target: 'x', channel: 'c', details })

t.test('the recorded actor, taken out of the details', async t => {
  for (const actor of ['user', 'consolidation', 'promotion', 'merge', 'system']) {
    t.same(toHistory(entry('fact.create', { actor, claim: 'a' })), { at: '2026-01-01T00:00:00.000Z', action: 'fact.create', actor, channel: 'c', details: { claim: 'a' } })
  }
})

t.test('no actor, or one not known: promotion for a promote, else system', async t => {
  t.equal(toHistory(entry('entity.promote', { to: '_global' })).actor, 'promotion')
  t.equal(toHistory(entry('entity.update', {})).actor, 'system')
  t.equal(toHistory(entry('fact.create', { actor: 'mallory' })).actor, 'system')
  t.equal(toHistory(entry('fact.create', { actor: 7 })).actor, 'system')
  t.same(toHistory(entry('fact.create', { actor: 'mallory', claim: 'b' })).details, { claim: 'b' })
})
