// Keyword search over turns for recall techniques: the graph store's copies of the turns
// when it keeps them with a full-text index of its own (GraphStore.searchTurns: Neo4j's
// Lucene index), else the relational store's full text. The relational store is the
// record, so the graph store being down sends the search back to it (nothing degrades);
// any other failure is the caller's to see.
import type { GraphStore, RelationalStore, Turn, VectorQuery } from '../../contracts/memory-stores.ts'
import { StoreUnavailableError } from '../memory/index.ts'

export async function keywordTurns (
  stores: { graph?: GraphStore, relational?: RelationalStore },
  q: { text: string, channels: string[], limit: number },
): Promise<Array<Turn & { score: number }>> {
  const { graph, relational } = stores
  if (graph?.searchTurns !== undefined) {
    try {
      return await graph.searchTurns(q)
    } catch (err) {
      if (!(err instanceof StoreUnavailableError) || relational === undefined) throw err
    }
  }
  return relational === undefined ? [] : await relational.searchTurns(q)
}

/**
 * The nearest turns by vector: the graph store's copies when it keeps them with a vector
 * index of its own (GraphStore.similarTurns: Neo4j), else the relational store's. As for
 * keyword search, the graph store being down sends the read back to the relational store.
 */
export async function vectorTurns (
  stores: { graph?: GraphStore, relational?: RelationalStore },
  q: VectorQuery,
): Promise<Array<Turn & { score: number }>> {
  const { graph, relational } = stores
  if (graph?.similarTurns !== undefined) {
    try {
      return await graph.similarTurns(q)
    } catch (err) {
      if (!(err instanceof StoreUnavailableError) || relational === undefined) throw err
    }
  }
  return relational === undefined ? [] : await relational.similarTurns(q)
}
