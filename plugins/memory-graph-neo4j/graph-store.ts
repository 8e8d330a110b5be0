// The graph memory store on Neo4j 5 (neo4j-driver): entities, facts, ABOUT links,
// SUPERSEDES links and typed RELATES_TO relationships, every node carrying its channel.
// Parameterised Cypher only (cypher.ts). Vector indexes per vector size and full-text
// indexes are created idempotently; a server that is away gives StoreUnavailableError,
// and a circuit breaker skips it for a cool-down so chats do not wait on it.
import neo4j from 'neo4j-driver'
import { StoreUnavailableError } from '@agentd/sdk/kits/memory'
import type { DeleteCounts, GraphStore } from '@agentd/sdk/contracts/memory-stores'
import { Q } from './cypher.ts'
import { num } from './rows.ts'
import { CQ } from './copies.ts'
import { Neo4jCopyRoles } from './store-copies.ts'

/** Every graph role on Neo4j: entities, facts, relationships, copies (store-*.ts); the channels here. */

export class Neo4jGraphStore extends Neo4jCopyRoles implements GraphStore {
  // ---- channels and housekeeping -------------------------------------------------------
  async deleteChannel (name: string): Promise<DeleteCounts> {
    return await this.run('WRITE', async tx => {
      const n = async (q: string): Promise<number> => num((await tx.run(q, { channel: name })).records[0].get('n'))
      const relationships = await n(Q.deleteChannelRelationships)
      const facts = await n(Q.deleteChannelFacts)
      const entities = await n(Q.deleteChannelEntities)
      const turns = await n(CQ.deleteChannelTurns)
      const conversations = await n(CQ.deleteChannelConversations)
      const goals = await n(CQ.deleteChannelGoals)
      const strategies = await n(CQ.deleteChannelStrategies)
      return { entities, facts, relationships, turns, conversations, goals, strategies }
    })
  }

  async countByChannel (): Promise<Record<string, Record<string, number>>> {
    return await this.run('READ', async tx => {
      const out: Record<string, Record<string, number>> = {}
      for (const r of (await tx.run(Q.countByChannel, {})).records) (out[String(r.get('channel'))] ??= {})[String(r.get('kind'))] = num(r.get('n'))
      return out
    })
  }

  async deleteAll (): Promise<number> {
    return await this.run('WRITE', async tx => {
      let n = 0
      for (const q of [Q.deleteAllLinks, Q.deleteAllRelationships, Q.deleteAllFacts, Q.deleteAllEntities]) n += num((await tx.run(q, {})).records[0].get('n'))
      // The copies of goals and strategies go too, uncounted: the relational store counts its own.
      await tx.run(CQ.deleteAllGoalsAndStrategies, {})
      return n
    })
  }

}
export type { Neo4jGraphStoreOptions } from './store-base.ts'
