// cld3 in worker threads: same answers as in-thread, and no request left hanging when
// the pool goes away.
import t from 'tap'
import { loadCld3 } from './cld3-backend.ts'
import { loadCld3Pool } from './cld3-pool.ts'

t.test('the pool answers like cld3 in the thread', async t => {
  const pool = await loadCld3Pool(2)
  const local = await loadCld3()
  t.teardown(async () => { await pool.dispose?.(); await local.dispose?.() })
  for (const text of ['Alle Menschen sind frei und gleich an Würde und Rechten geboren.', 'ok', 'Γειά σου κόσμε']) {
    t.same(await pool.guess(text), local.guess(text), text)
  }
})

t.test('after dispose a guess fails at once instead of hanging', async t => {
  const pool = await loadCld3Pool(1)
  await pool.dispose?.()
  await t.rejects(Promise.resolve().then(async () => await pool.guess('hello world')), /exited/)
})
