// The relational store contract, one suite per slice of the RelationalStore interface
// (packages/sdk/src/contracts/memory-relational.ts), each typed by the slices it exercises, so a
// store that serves some slices runs their suites. The SQL store runs them on PGlite and
// PostgreSQL (plugins/memory-sql/relational.contract.test.ts).
import type { Test } from 'tap'
import type { RelationalStore } from '@agentd/sdk/contracts/memory-stores'
import { turnSlice } from './contracts/relational-turns.ts'
import { conversationSlice } from './contracts/relational-conversations.ts'
import { proceduralSlice } from './contracts/relational-procedural.ts'
import { channelAuditSlice } from './contracts/relational-channels.ts'

/** Every slice on one store; `ageAudit` makes audit entries older (the backend's own way). */
export function relationalStoreContract (t: Test, store: RelationalStore, ageAudit: (action: string, days: number) => Promise<void>): void {
  t.test('turns', async t => { turnSlice(t, store) })
  t.test('conversations', async t => { conversationSlice(t, store) })
  t.test('goals, strategies, tool log', async t => { proceduralSlice(t, store) })
  t.test('channels and audit', async t => { channelAuditSlice(t, store, ageAudit) })
}
