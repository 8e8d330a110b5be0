// TypeBox's value functions through the SDK (see index.ts for why).
export * from 'typebox/value'
