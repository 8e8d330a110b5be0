import t from 'tap'
import { TaskTracker } from './tracker.ts'

t.test('the tracker lists active tasks and reports the newest one\'s status, idle when none', async t => {
  const tracker = new TaskTracker()
  t.equal(tracker.status(), 'idle')
  const a = tracker.start('chat')
  const b = tracker.start('agent', 'planning')
  t.match(a.task_id, /^[0-9a-f]{8}$/)
  t.equal(tracker.status(), 'planning')
  b.set('executing')
  t.same(tracker.list().map(x => [x.kind, x.status]), [['chat', 'reasoning'], ['agent', 'executing']])
  b.end()
  b.end()
  t.equal(tracker.status(), 'reasoning')
  a.end()
  t.same(tracker.list(), [])
  t.equal(tracker.status(), 'idle')
})

t.test('a handle cannot touch a newer task that reused its id', async t => {
  const tracker = new TaskTracker()
  const old = tracker.start('chat', 'reasoning', 'same-id')
  old.end()
  const fresh = tracker.start('chat', 'executing', 'same-id')
  old.set('failed')
  old.end()
  t.same(tracker.list().map(x => x.status), ['executing'])
  fresh.end()
})

t.test('activeSessions: distinct sessions with a request in flight; a task without a session is one of its own', async t => {
  const tracker = new TaskTracker()
  t.equal(tracker.activeSessions(), 0)
  const a = tracker.start('chat', 'reasoning', undefined, 's1')
  const b = tracker.start('chat_stream', 'reasoning', undefined, 's1')
  t.equal(tracker.activeSessions(), 1, 'two requests of one session')
  const c = tracker.start('agent', 'planning')
  t.equal(tracker.activeSessions(), 2, 'an agent run counts')
  a.end(); b.end(); c.end()
  t.equal(tracker.activeSessions(), 0)
})
