// For a test that starts agentd from its sources in a child process: `--import` this (see hooks.mjs).
export const TS_LOADER = new URL('./register.mjs', import.meta.url).href
