import { readFileSync, readdirSync } from 'node:fs'
const dir = '/tmp/prof'
const f = readdirSync(dir).filter(x => x.endsWith('.cpuprofile')).sort()[0]
const prof = JSON.parse(readFileSync(`${dir}/${f}`, 'utf8'))
const limit = Number(process.argv[2] ?? 600) * 1000
const byId = new Map(prof.nodes.map(n => [n.id, n]))
let t = 0
const self = new Map()
for (let i = 0; i < prof.samples.length; i++) {
  t += prof.timeDeltas[i]
  if (t > limit) break
  const n = byId.get(prof.samples[i])
  let url = n.callFrame.url || `(${n.callFrame.functionName || 'program'})`
  url = url.replace('file:///work/main/', '').replace(/node_modules\/((@[^/]+\/)?[^/]+).*/, 'nm:$1').replace(/^(dist\/(core|plugins\/[^/]+)|packages\/sdk\/dist\/[^/]+).*/, '$1')
  self.set(url, (self.get(url) ?? 0) + prof.timeDeltas[i])
}
console.log('profile', f, 'first', limit / 1000, 'ms')
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log((v / 1000).toFixed(1).padStart(8), k)
