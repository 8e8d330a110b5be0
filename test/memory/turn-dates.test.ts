// Time in recall on a real server (embedded defaults, the hybrid and time techniques): a
// turn's relative dates are resolved against its own date when it is stored, and a
// question naming that day finds it before a turn saying the same of another day.
import t from 'tap'
import { startMemoryKernel, postJson } from './memory-kernel.ts'
import { repoPlugin } from '../helpers/workspace.ts'

const techniques = ['recall-hybrid', 'recall-time'].map(name => ({ name, module: repoPlugin(name) }))

t.test('"yesterday" said on 8 May 2023 is found by a question about 7 May 2023, before the same said in June', async t => {
  const s = await startMemoryKernel(t, { extra: techniques, jobs: false })
  const messages = [
    { role: 'user', content: 'I went to a support group yesterday, it helped a lot.', timestamp: '2023-05-08T13:56:00Z' },
    { role: 'user', content: 'I went to the support group again and it helped a lot.', timestamp: '2023-06-20T10:00:00Z' },
    { role: 'user', content: 'We went camping at the lake with the kids.', timestamp: '2023-06-21T10:00:00Z' },
  ]
  const w = await postJson(s, '/api/memory/turns', { channel: 'dates', messages })
  t.equal(w.status, 201, JSON.stringify(w.body))
  const r = await postJson(s, '/api/memory/recall', { query: 'Which group did I go to on 7 May 2023?', channel: 'dates', top_k: 3 })
  t.equal(r.status, 200)
  const order = (r.body.relevant_turns as Array<{ content: string }>).map(x => x.content)
  t.equal(order[0], messages[0].content, order.join(' | '))
  t.ok((r.body.techniques as string[]).includes('time'), 'the time technique ran')
})
