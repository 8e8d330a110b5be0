import { readFileSync, readdirSync } from 'node:fs'
const dir = '/tmp/prof'
const f = readdirSync(dir).filter(x => x.endsWith('.cpuprofile')).sort()[0]
const prof = JSON.parse(readFileSync(`${dir}/${f}`, 'utf8'))
const limit = Number(process.argv[2] ?? 600) * 1000
const byId = new Map(prof.nodes.map(n => [n.id, n]))
const parent = new Map()
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
const norm = url => url.replace('file:///work/main/', '').replace(/node_modules\/((@[^/]+\/)?[^/]+).*/, 'nm:$1').replace(/^(dist\/(core|plugins\/[^/]+)|packages\/sdk\/dist\/[^/]+).*/, '$1')
let t = 0
const incl = new Map()
for (let i = 0; i < prof.samples.length; i++) {
  t += prof.timeDeltas[i]
  if (t > limit) break
  let id = prof.samples[i]
  let key = '(none)'
  while (id !== undefined) {
    const n = byId.get(id)
    const u = n.callFrame.url
    if (u && !u.startsWith('node:')) { key = norm(u); break }
    id = parent.get(id)
  }
  incl.set(key, (incl.get(key) ?? 0) + prof.timeDeltas[i])
}
for (const [k, v] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log((v / 1000).toFixed(1).padStart(8), k)
