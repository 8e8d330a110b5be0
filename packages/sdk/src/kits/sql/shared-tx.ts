// How two SQL stores on the same database share one transaction (deleting a channel from
// the relational and the graph store at once) without either depending on the other's
// class: the graph store answers this symbol with its part, for a handle it also uses.
import type { Kysely } from 'kysely'
import type { DeleteCounts } from '../../contracts/memory-stores.ts'
import type { SqlHandle } from './connect.ts'

export const SQL_CHANNEL_TX = Symbol.for('agentd.memory-sql.channel-tx')

export interface SqlChannelPart {
  /** Sets the store up (migrations) outside the transaction. */
  prepare: () => Promise<void>
  deleteChannel: (trx: Kysely<unknown>, name: string) => Promise<DeleteCounts>
}

export interface SqlTxParticipant {
  /** The store's part when it lives on `h`, else undefined. */
  [SQL_CHANNEL_TX]: (h: SqlHandle) => SqlChannelPart | undefined
}
