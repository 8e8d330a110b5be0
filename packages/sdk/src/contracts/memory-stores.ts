// Memory store contracts: three roles (graph, relational+vector, key-value). Each role is
// a small, backend-neutral interface with an in-process or embedded reference
// implementation, the way @fastify/rate-limit's LocalStore/RedisStore share one interface.
// Stores never embed text themselves: the memory service embeds and hands them vectors
// tagged with the embedder id, so a store can be swapped without touching embeddings.
// A store that cannot reach its backend throws the memory kit's StoreUnavailableError.
// The types live in memory-common.ts, memory-relational.ts and memory-graph.ts; this file
// gathers them and declares the registry kinds and the hook point.
export type * from './memory-common.ts'
export type * from './memory-relational.ts'
export type * from './memory-graph.ts'
import type { EntityMerged, GraphStore } from './memory-graph.ts'
import type { RelationalStore } from './memory-relational.ts'
import type { KvStore } from './memory-common.ts'


declare module '../kernel/registry.ts' {
  interface Capabilities {
    graphStores: GraphStore
    relationalStores: RelationalStore
    kvStores: KvStore
  }
}


declare module '../kernel/hooks.ts' {
  interface HookPayloads {
    /** After a graph store merged two entities (committed). */
    'memory:entity-merged': EntityMerged
  }
}
