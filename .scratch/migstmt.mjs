const { openSql } = await import('@agentd/sdk/kits/sql')
const { SqlRelationalStore } = await import('../dist/plugins/memory-sql/relational-store.js')
const h = await openSql({ backend: 'pglite', dir: '/tmp/mig-' + Date.now(), schema: 'public' }, { warn: () => {} })
const stats = []
for (const fn of ['query', 'exec']) {
  const orig = h.pglite[fn].bind(h.pglite)
  h.pglite[fn] = async (q, ...a) => { const origTx = h.pglite.transaction.bind(h.pglite)
h.pglite.transaction = (cb) => origTx(async tx => { const q = tx.query.bind(tx); tx.query = async (s, ...a) => { const t = performance.now(); try { return await q(s, ...a) } finally { stats.push([performance.now() - t, String(s).replace(/\s+/g, ' ').slice(0, 110)]) } }; return await cb(tx) })
const t = performance.now(); try { return await orig(q, ...a) } finally { stats.push([performance.now() - t, String(q).replace(/\s+/g, ' ').slice(0, 110)]) } }
}
const origTx = h.pglite.transaction.bind(h.pglite)
h.pglite.transaction = (cb) => origTx(async tx => { const q = tx.query.bind(tx); tx.query = async (s, ...a) => { const t = performance.now(); try { return await q(s, ...a) } finally { stats.push([performance.now() - t, String(s).replace(/\s+/g, ' ').slice(0, 110)]) } }; return await cb(tx) })
const t = performance.now()
const rel = new SqlRelationalStore(h); await rel.init()
console.log('init', (performance.now() - t).toFixed(0), 'statements', stats.length, 'sum', stats.reduce((a, b) => a + b[0], 0).toFixed(0))
for (const [ms, q] of stats.sort((a, b) => b[0] - a[0]).slice(0, 15)) console.log(ms.toFixed(1).padStart(7), q)
await h.close()
