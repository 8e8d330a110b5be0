// TypeBox's compiler through the SDK (see index.ts for why).
export * from 'typebox/compile'
