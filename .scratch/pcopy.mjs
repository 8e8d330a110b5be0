import { promises as fsp, readdirSync, mkdirSync, cpSync, rmSync } from 'node:fs'
import path from 'node:path'
const S = 'node_modules/.cache/agentd-pglite-seed/0.5.14'
function list (dir, rel = '', out = { dirs: [], files: [] }) {
  for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = path.join(rel, e.name)
    if (e.isDirectory()) { out.dirs.push(r); list(dir, r, out) } else out.files.push(r)
  }
  return out
}
async function pcopy (from, to, conc) {
  const { dirs, files } = list(from)
  mkdirSync(to, { recursive: true })
  for (const d of dirs) mkdirSync(path.join(to, d), { recursive: true })
  let i = 0
  await Promise.all(Array.from({ length: conc }, async () => { while (i < files.length) { const f = files[i++]; await fsp.copyFile(path.join(from, f), path.join(to, f)) } }))
}
for (const conc of [4, 8, 16]) {
  for (let r = 0; r < 2; r++) {
    const to = `/tmp/pc-${conc}-${r}`
    const t = performance.now(); await pcopy(S, to, conc); const a = performance.now() - t
    const t2 = performance.now(); cpSync(S, to + 's', { recursive: true }); const b = performance.now() - t2
    console.log('conc', conc, 'parallel', a.toFixed(0), 'cpSync', b.toFixed(0))
    rmSync(to, { recursive: true }); rmSync(to + 's', { recursive: true })
  }
}
