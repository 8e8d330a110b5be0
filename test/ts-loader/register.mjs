// `node --import=./test/ts-loader/register.mjs file.test.ts`: see hooks.mjs for why not tsx.
import { register } from 'node:module'

// Stack traces and tap's failure locations name the .ts lines (the transform's inline maps).
process.setSourceMapsEnabled(true)
register('./hooks.mjs', import.meta.url)
