// The tests' TypeScript loader: Node's module hooks with esbuild's transform for .ts files
// and nothing else. tsx (which `npm run dev` and the benches use) does more for every module
// it sees, .ts or not (tsconfig path aliases, extension guessing, CommonJS interop, a disk
// cache): measured per test file, 0.3-1.2 s of CPU more (docs/testing.md), and the suite is
// ~240 processes. The code here needs none of it: imports name their `.ts` files
// (allowImportingTsExtensions) and everything is ESM. esbuild is the transform tsx uses,
// with the same compiler options, so the code runs the same.
import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { transform } from 'esbuild'

const TS = /\.m?ts$/

/** The project's compiler options, as tsx hands them to esbuild (target ES2022: class fields as tsc emits them). */
const tsconfigRaw = JSON.parse(readFileSync(new URL('../../tsconfig.json', import.meta.url), 'utf8'))

export async function load (url, context, next) {
  if (!url.startsWith('file:') || !TS.test(new URL(url).pathname)) return next(url, context)
  const source = await readFile(new URL(url), 'utf8')
  const { code } = await transform(source, {
    loader: 'ts',
    format: 'esm',
    target: 'node20',
    sourcemap: 'inline',
    sourcesContent: false,
    sourcefile: new URL(url).pathname,
    tsconfigRaw,
  })
  return { format: 'module', source: code, shortCircuit: true }
}
