// Every capability contract, types only. Importing this (or `@agentd/sdk`) merges each
// contract's kind into the registry's Capabilities and its hook points into HookPayloads.
export type * from './provider.ts'
export type * from './models.ts'
export type * from './tool-source.ts'
export type * from './strategy.ts'
export type * from './memory-stores.ts'
export type * from './memory-service.ts'
export type * from './recall.ts'
export type * from './embedder.ts'
export type * from './language.ts'
export type * from './job.ts'
export type * from './health.ts'
export type * from './chat.ts'
