// `npm run bench`: runs every bench/*.bench.ts in turn (or those named on the command line).
import { readdirSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const dir = path.dirname(fileURLToPath(import.meta.url))
const wanted = process.argv.slice(2)
const files = readdirSync(dir).filter(f => f.endsWith('.bench.ts') && (wanted.length === 0 || wanted.some(w => f.includes(w)))).sort()
let failed = 0
for (const f of files) {
  console.log(`\n=== ${f}`)
  const r = spawnSync(process.execPath, ['--import=tsx', path.join(dir, f)], { stdio: 'inherit' })
  if (r.status !== 0) { failed++; console.log(`${f} exited ${r.status}`) }
}
process.exit(failed > 0 ? 1 : 0)
