// The kernel's file watcher: a close() that comes while set() is still starting the
// watcher (a shutdown right after start) ends set()'s wait instead of leaving it forever.
import t from 'tap'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { FileWatcher } from './watch.ts'

t.test('close() during set() lets set() return', async t => {
  const dir = mkdtempSync(path.join(tmpdir(), 'agentd-watch-'))
  t.teardown(() => { rmSync(dir, { recursive: true, force: true }) })
  const file = path.join(dir, 'plugins.json')
  writeFileSync(file, '{}')
  const w = new FileWatcher(10, () => {})
  await w.set([file]) // chokidar loaded: the next set() makes its watcher at once
  const setting = w.set([file, path.join(dir, '.env')]).then(() => 'returned')
  for (let i = 0; i < 20; i++) await Promise.resolve() // the watcher exists, not ready yet
  await w.close()
  const timeout = new Promise(resolve => { setTimeout(() => { resolve('still waiting') }, 5000).unref() })
  t.equal(await Promise.race([setting, timeout]), 'returned')
})
