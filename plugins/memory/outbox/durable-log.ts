// An append-only queue on disk: one JSON line per entry in `outbox.jsonl`, and in
// `outbox.offset` how far the entries were taken (acknowledged). Appends are synchronous
// writes, so an entry is in the file (the OS's cache at least) before the caller hears
// "queued", and entries keep their order; a process that dies or restarts finds them
// again. Not fsynced: a power cut may lose the last writes, a crash does not.
//
// The file is rewritten only when it is compacted. Each file starts with a header naming
// it; the offset file names the file it belongs to. A crash between writing a compacted
// file and its offset leaves an offset for another file, which is then ignored: every
// entry of the new file is pending, which is what it holds.
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync, ftruncateSync } from 'node:fs'
import { randomUUID } from 'node:crypto'
import path from 'node:path'

export interface LogEntry<T = unknown> { at: string, kind: string, key: string, data: T }

interface Pending { entry: LogEntry, bytes: number }

export interface DurableLogOptions { maxEntries: number, maxBytes: number }

const LOG = 'outbox.jsonl'
const OFFSET = 'outbox.offset'
/** Compact once this much of the file was taken and it is at least half the file. */
const COMPACT_AT = 4 * 1024 * 1024

export class DurableLog {
  readonly dir: string
  #opts: DurableLogOptions
  #fd: number
  #id: string
  /** Byte offset of the first pending entry. */
  #offset: number
  /** Length of the file: where the next entry goes. */
  #end: number
  #pending: Pending[] = []
  #pendingBytes = 0
  /** Lines that could not be parsed when the file was read (a torn last write). */
  readonly skipped: number

  constructor (dir: string, opts: DurableLogOptions) {
    this.dir = dir
    this.#opts = opts
    mkdirSync(dir, { recursive: true })
    const file = path.join(dir, LOG)
    const { id, offset, pending, skipped, validBytes } = read(file, path.join(dir, OFFSET))
    this.skipped = skipped
    this.#pending = pending
    this.#pendingBytes = pending.reduce((n, p) => n + p.bytes, 0)
    if (id === undefined) {
      this.#id = randomUUID()
      this.#fd = openSync(file, 'w')
      this.#offset = this.#end = this.#writeHeader()
    } else {
      this.#id = id
      this.#fd = openSync(file, 'r+')
      // A torn last line is cut off, so the next append starts on a line of its own.
      if (fstatSync(this.#fd).size > validBytes) ftruncateSync(this.#fd, validBytes)
      this.#offset = offset
      this.#end = validBytes
    }
  }

  get size (): number { return this.#pending.length }
  get bytes (): number { return this.#pendingBytes }
  get full (): boolean { return this.#pending.length >= this.#opts.maxEntries || this.#pendingBytes >= this.#opts.maxBytes }
  get oldest (): LogEntry | undefined { return this.#pending[0]?.entry }
  get limits (): DurableLogOptions { return this.#opts }
  set limits (o: DurableLogOptions) { this.#opts = o }

  /** Appends an entry; false (nothing written) when the log is at its bound. */
  append (entry: LogEntry): boolean {
    if (this.full) return false
    const line = JSON.stringify(entry) + '\n'
    const bytes = Buffer.byteLength(line)
    writeSync(this.#fd, line, this.#end)
    this.#end += bytes
    this.#pending.push({ entry, bytes })
    this.#pendingBytes += bytes
    return true
  }

  peek (): LogEntry | undefined { return this.#pending[0]?.entry }

  /** Marks the first entry done. */
  ack (): void {
    const head = this.#pending.shift()
    if (head === undefined) return
    this.#pendingBytes -= head.bytes
    this.#offset += head.bytes
    if (this.#pending.length === 0) {
      // Drained: start the file over.
      ftruncateSync(this.#fd, 0)
      this.#offset = this.#end = this.#writeHeader()
    } else if (this.#offset >= COMPACT_AT && this.#offset >= this.#pendingBytes) {
      this.#compact()
    }
    this.#saveOffset()
  }

  /** Moves the first entry to `outbox.failed.jsonl` (kept for a person to look at) and drops it. */
  reject (reason: string): void {
    const head = this.#pending[0]
    if (head === undefined) return
    writeFileSync(path.join(this.dir, 'outbox.failed.jsonl'), JSON.stringify({ ...head.entry, failed_at: new Date().toISOString(), reason }) + '\n', { flag: 'a' })
    this.ack()
  }

  close (): void { closeSync(this.#fd) }

  /** Deletes the files (tests). */
  destroy (): void { this.close(); rmSync(this.dir, { recursive: true, force: true }) }

  #writeHeader (): number {
    const header = JSON.stringify({ outbox: this.#id }) + '\n'
    writeSync(this.#fd, header, 0)
    return Buffer.byteLength(header)
  }

  #saveOffset (): void {
    const file = path.join(this.dir, OFFSET)
    writeFileSync(file + '.tmp', `${this.#id} ${this.#offset}`)
    renameSync(file + '.tmp', file)
  }

  #compact (): void {
    const file = path.join(this.dir, LOG)
    this.#id = randomUUID()
    const header = JSON.stringify({ outbox: this.#id }) + '\n'
    writeFileSync(file + '.tmp', header + this.#pending.map(p => JSON.stringify(p.entry) + '\n').join(''))
    renameSync(file + '.tmp', file)
    closeSync(this.#fd)
    this.#fd = openSync(file, 'r+')
    this.#offset = Buffer.byteLength(header)
    this.#end = fstatSync(this.#fd).size
  }
}

function read (file: string, offsetFile: string): { id?: string, offset: number, pending: Pending[], skipped: number, validBytes: number } {
  if (!existsSync(file)) return { offset: 0, pending: [], skipped: 0, validBytes: 0 }
  const buf = readFileSync(file)
  const firstNl = buf.indexOf(0x0a)
  let id: string | undefined
  try { id = firstNl < 0 ? undefined : (JSON.parse(buf.subarray(0, firstNl).toString('utf8')) as { outbox?: string }).outbox } catch { id = undefined }
  if (typeof id !== 'string') return { offset: 0, pending: [], skipped: buf.length > 0 ? 1 : 0, validBytes: 0 }
  let offset = firstNl + 1
  if (existsSync(offsetFile)) {
    const [forId, at] = readFileSync(offsetFile, 'utf8').trim().split(' ')
    const n = Number(at)
    if (forId === id && Number.isInteger(n) && n >= offset && n <= buf.length) offset = n
  }
  const pending: Pending[] = []
  let skipped = 0
  let pos = offset
  while (pos < buf.length) {
    const nl = buf.indexOf(0x0a, pos)
    if (nl < 0) { skipped++; break } // torn last write
    const bytes = nl + 1 - pos
    try {
      pending.push({ entry: JSON.parse(buf.subarray(pos, nl).toString('utf8')) as LogEntry, bytes })
    } catch { skipped++ }
    pos = nl + 1
  }
  // `pos` stops at the start of a torn last line, else at the end of the file.
  return { id, offset, pending, skipped, validBytes: pos }
}
