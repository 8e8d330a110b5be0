// Keyword search over turns for recall techniques: the graph store's copies of the turns
// when it keeps them with a full-text index of its own (GraphStore.searchTurns: Neo4j's
// Lucene index), else the relational store's full text. The relational store is the
// record, so the graph store being down sends the search back to it (nothing degrades);
// any other failure is the caller's to see. A query naming a time ("in May 2023", "on 7 May
// 2023") searches for that day's or month's date words too (dates.ts), which every turn's
// keywords hold for when it was said and for the days its relative dates point to.
import type { CopyStore, Turn, TurnStore, VectorQuery } from '../../contracts/memory-stores.ts'
import { StoreUnavailableError } from '../memory/index.ts'
import { queryDateWords } from './dates.ts'

export async function keywordTurns (
  stores: { graph?: CopyStore, relational?: TurnStore },
  query: { text: string, channels: string[], limit: number },
): Promise<Array<Turn & { score: number }>> {
  // First: a search reads a query's first twelve words. A date that cannot be read adds nothing.
  const dates = await queryDateWords(query.text).catch(() => [])
  const q = dates.length === 0 ? query : { ...query, text: `${dates.join(' ')} ${query.text}` }
  return await graphFirst(stores, g => g.searchTurns?.bind(g), r => r.searchTurns(q), q)
}

/**
 * The nearest turns by vector: the graph store's copies when it keeps them with a vector
 * index of its own (GraphStore.similarTurns: Neo4j), else the relational store's. As for
 * keyword search, the graph store being down sends the read back to the relational store.
 */
export async function vectorTurns (
  stores: { graph?: CopyStore, relational?: TurnStore },
  q: VectorQuery,
): Promise<Array<Turn & { score: number }>> {
  return await graphFirst(stores, g => g.similarTurns?.bind(g), r => r.similarTurns(q), q)
}

/**
 * The graph store's read when it offers one (it keeps copies of the turns: Neo4j), else the
 * relational store's; the graph store being down sends the read back to the relational store.
 */
async function graphFirst<Q, T> (
  stores: { graph?: CopyStore, relational?: TurnStore },
  ofGraph: (g: CopyStore) => ((q: Q) => Promise<T[]>) | undefined,
  ofRelational: (r: TurnStore) => Promise<T[]>,
  q: Q,
): Promise<T[]> {
  const { graph, relational } = stores
  const read = graph === undefined ? undefined : ofGraph(graph)
  if (read !== undefined) {
    try {
      return await read(q)
    } catch (err) {
      if (!(err instanceof StoreUnavailableError) || relational === undefined) throw err
    }
  }
  return relational === undefined ? [] : await ofRelational(relational)
}

