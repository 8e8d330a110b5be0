// @agentd/sdk can be published for plugins on npm to depend on: its package.json has the
// fields a registry needs, and `npm pack` holds the compiled code, the sources (its types),
// the licence and the readme, but no tests and not agentd's own prepared database seed.
import t from 'tap'
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { REPO } from '../helpers/workspace.ts'

const dir = path.join(REPO, 'packages', 'sdk')

t.test('package.json: publishable, licensed, files listed', async t => {
  const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Record<string, unknown>
  t.notOk(pkg.private, 'not private')
  t.equal(pkg.license, 'MIT')
  t.match(pkg, { name: '@agentd/sdk', type: 'module', publishConfig: { access: 'public' } })
  t.ok(Array.isArray(pkg.files), 'files listed')
  t.match(pkg.peerDependencies, { fastify: String })
})

t.test('npm pack: code, sources, licence, readme; no tests, no seed', async t => {
  // --ignore-scripts: the packing, not prepack's build (the suite builds dist/ elsewhere).
  const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: dir, encoding: 'utf8' })
  t.equal(r.status, 0, r.stderr)
  const files = (JSON.parse(r.stdout) as Array<{ files: Array<{ path: string }> }>)[0].files.map(f => f.path)
  for (const f of ['LICENSE', 'README.md', 'package.json', 'src/index.ts', 'src/kits/provider/index.ts']) t.ok(files.includes(f), f)
  t.same(files.filter(f => f.endsWith('.test.ts') || f.includes('test-fixtures') || f.startsWith('dist/pglite-ready')), [], 'no tests, fixtures or prepared seed')
  // dist/ is there once built (npm install builds it; prepack builds it before a publish).
  if (files.some(f => f.startsWith('dist/'))) t.ok(files.includes('dist/index.js'), 'dist/index.js')
})
