// The SQL relational store's base: the SQL kit's SqlStore over this plugin's migrations and
// vector tables (turns, goals, strategies). The roles extend it in turn: turns
// (relational-turns.ts), goals, strategies and tool calls (relational-procedural.ts),
// channels and the audit log (relational-store.ts, the whole).
import { SqlStore, type SqlHandle } from '@agentd/sdk/kits/sql'
import { relationalMigrations } from './migrations.ts'
import { SOURCES } from './relational-rows.ts'

export class SqlStoreBase extends SqlStore {
  constructor (h: SqlHandle) { super(h, 'relational', relationalMigrations, SOURCES) }
}
