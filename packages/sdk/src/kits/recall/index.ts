// The recall kit: values every recall technique and the memory service share: the
// recall settings (DECISIONS.md's keys and defaults), reciprocal rank fusion, and the
// word rules of keyword matching.
export * from './settings.ts'
export * from './fuse.ts'
export * from './text.ts'
export * from './model.ts'
export * from './turns.ts'
export * from './context.ts'
export * from './sentences.ts'
export * from './dates.ts'
export * from './timing.ts'
