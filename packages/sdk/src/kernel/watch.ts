// Watches the files whose change rebuilds the generation. Watches each file's folder
// (depth 0) so a file that does not exist yet, or is replaced by rename, is still seen.
// chokidar is loaded on the first set(), after the server answers (see docs/architecture.md, start).
import type { FSWatcher } from 'chokidar'
import path from 'node:path'

export class FileWatcher {
  #watcher: FSWatcher | undefined
  #files = new Set<string>()
  #timer: NodeJS.Timeout | undefined
  #pending = new Set<string>()
  readonly #debounceMs: number
  readonly #onChange: (files: string[]) => void
  /** Bumped by every close(): a set() that a close() overtook stops where it is. */
  #epoch = 0
  /** Ends the wait of a set() in progress (its watcher closed before it was ready). */
  #unblock: (() => void) | undefined

  constructor (debounceMs: number, onChange: (files: string[]) => void) {
    this.#debounceMs = debounceMs
    this.#onChange = onChange
  }

  /** Sets the exact list of watched files; returns once the watcher is ready. */
  async set (files: string[]): Promise<void> {
    const next = new Set(files.map(f => path.resolve(f)))
    if (this.#watcher !== undefined && [...next].every(f => this.#files.has(f)) && next.size === this.#files.size) return
    await this.close()
    const epoch = this.#epoch
    this.#files = next
    const dirs = [...new Set([...next].map(f => path.dirname(f)))]
    const { watch } = await import('chokidar')
    // Closed while chokidar loaded (a shutdown right after start): no watcher to leave behind.
    if (epoch !== this.#epoch) return
    const w = watch(dirs, {
      depth: 0,
      ignoreInitial: true,
      ignored: (p: string) => p !== path.resolve(p) ? false : !(dirs.includes(p) || this.#files.has(p)),
      awaitWriteFinish: false,
    })
    this.#watcher = w
    w.on('all', (_event, file) => {
      const abs = path.resolve(file)
      if (!this.#files.has(abs)) return
      this.#pending.add(abs)
      clearTimeout(this.#timer)
      this.#timer = setTimeout(() => {
        const changed = [...this.#pending]
        this.#pending.clear()
        this.#onChange(changed)
      }, this.#debounceMs)
    })
    // A watcher closed before it is ready never says so: close() ends this wait instead,
    // or a shutdown right after start would wait on it forever.
    await new Promise<void>(resolve => { this.#unblock = resolve; w.once('ready', () => { resolve() }) })
    this.#unblock = undefined
  }

  async close (): Promise<void> {
    this.#epoch++
    this.#unblock?.()
    this.#unblock = undefined
    clearTimeout(this.#timer)
    const w = this.#watcher
    this.#watcher = undefined
    await w?.close()
  }
}
