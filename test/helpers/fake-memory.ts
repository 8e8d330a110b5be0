// The one fake memory service (and fake key-value store) for tests of the plugins that
// use memory (chat, agent): it journals every call process-wide, stores nothing real,
// answers recall with a fixed context, and fails on demand. Loaded as a plugin through
// test/fixtures/plugins/fake-memory (options: FakeMemoryOptions); the journals live on
// globalThis because every generation (and the test itself) must see the same ones.
import type { KvStore } from '@agentd/sdk/contracts/memory-stores'
import type { MemoryService, RecallResult } from '@agentd/sdk/contracts/memory-service'

export interface FakeMemoryOptions {
  /** What recall answers as `context`. */
  context: string
  /** ok; unstored: storeTurn answers `stored: false` as the contract says a down store does;
   * throw: storeTurn and recall reject, breaking the contract (callers must survive it). */
  mode: 'ok' | 'unstored' | 'throw'
  /** storeTurn waits until the test calls releaseStores() (to show storage is off the request path). */
  gate_stores: boolean
  /** Also register a key-value store over kvData(); kv_fail makes its every call throw. */
  kv: boolean
  kv_fail: boolean
  /** Give the key-value store `entries` (the optional listing method). */
  kv_entries?: boolean
}

export interface MemoryCall { op: 'storeTurn' | 'recall', arg: Record<string, unknown>, at: number }
export interface StoredTurn { conversation_id: string, role: string, content: string, channel?: string, metadata?: Record<string, unknown> }

interface Gate { promise: Promise<void>, release: () => void }
const g = globalThis as unknown as { __fakeMemoryJournal?: MemoryCall[], __fakeMemoryStored?: StoredTurn[], __fakeMemoryKv?: Map<string, unknown>, __fakeMemoryGate?: Gate }

/** Every call, in order, failed ones included. */
export const memoryJournal = (): MemoryCall[] => (g.__fakeMemoryJournal ??= [])
/** The turns storeTurn accepted. */
export const storedTurns = (): StoredTurn[] => (g.__fakeMemoryStored ??= [])
/** The fake key-value store's data, shared across generations like a real server's would be. */
export const kvData = (): Map<string, unknown> => (g.__fakeMemoryKv ??= new Map())

function newGate (): Gate { let release = (): void => undefined; const promise = new Promise<void>(resolve => { release = resolve }); return { promise, release } }
export const storeGate = (): Gate => (g.__fakeMemoryGate ??= newGate())
/** Lets gated stores finish; the next gated store waits again. */
export function releaseStores (): void { storeGate().release(); g.__fakeMemoryGate = newGate() }

const bundle = (context: string): RecallResult => ({ context, techniques: [], timings_ms: {}, relevant_turns: [], entities: [], facts: [], strategies: [], active_goals: [], user_context: {} })

export function fakeMemoryService (opts: FakeMemoryOptions): MemoryService {
  return {
    storeTurn: async (turn) => {
      memoryJournal().push({ op: 'storeTurn', arg: turn, at: performance.now() })
      if (opts.gate_stores) await storeGate().promise
      if (opts.mode === 'throw') throw new Error('connection refused (fake memory, mode throw)')
      if (opts.mode === 'unstored') return { stored: false, error: 'relational store unavailable (fake memory, mode unstored)' }
      storedTurns().push(turn)
      return { stored: true }
    },
    recall: async (query) => {
      memoryJournal().push({ op: 'recall', arg: query, at: performance.now() })
      if (opts.mode === 'throw') throw new Error('connection refused (fake memory, mode throw)')
      return bundle(opts.context)
    },
  }
}

export function fakeKvStore (opts: Pick<FakeMemoryOptions, 'kv_fail' | 'kv_entries'>): KvStore {
  const fail = (): void => { if (opts.kv_fail) throw new Error('kv is down') }
  const entries: Pick<KvStore, 'entries'> = opts.kv_entries === true
    ? { entries: async <T>(prefix: string) => { fail(); return [...kvData()].filter(([k]) => k.startsWith(prefix)).map(([key, value]) => ({ key, value: structuredClone(value) as T })) } }
    : {}
  return {
    ...entries,
    backend: 'fake-kv',
    get: async <T>(key: string) => { fail(); return structuredClone(kvData().get(key)) as T | undefined },
    set: async (key, value) => { fail(); kvData().set(key, structuredClone(value)) },
    delete: async (key) => { fail(); return kvData().delete(key) },
    deletePrefix: async (prefix) => { fail(); let n = 0; for (const k of kvData().keys()) if (k.startsWith(prefix)) { kvData().delete(k); n++ } return n },
    pushList: async () => { fail() },
    getList: async () => { fail(); return [] },
    health: async () => ({ status: 'healthy', backend: 'fake-kv' }),
  }
}
