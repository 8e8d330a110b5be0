// The browser libraries the console imports, resolved from node_modules at start: each
// package's own ES-module build, served as is (no bundler). The import map in
// public/index.html names them by these URLs under /console/vendor/.
import path from 'node:path'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const resolve = (spec: string): string => fileURLToPath(import.meta.resolve(spec))

/** The highlight.js languages code blocks are coloured in; others show as plain code. */
export const HIGHLIGHT_LANGUAGES = ['bash', 'css', 'javascript', 'json', 'python', 'sql', 'typescript', 'xml', 'yaml'] as const

/** URL name under /console/vendor/ -> absolute file. */
export function vendorFiles (): Map<string, string> {
  const stream = resolve('eventsource-parser/stream')
  // highlight.js's es/languages/*.js are plain ES modules (no imports).
  const languages = path.dirname(resolve('highlight.js/lib/languages/json'))
  return new Map([
    ['preact.mjs', resolve('preact')],
    ['hooks.mjs', resolve('preact/hooks')],
    ['htm.mjs', resolve('htm')],
    // stream.js imports "./index.js": both are served from one folder.
    ['eventsource-parser/stream.js', stream],
    ['eventsource-parser/index.js', path.join(path.dirname(stream), 'index.js')],
    ['marked.mjs', resolve('marked')],
    ['dompurify.mjs', resolve('dompurify')],
    ...HIGHLIGHT_LANGUAGES.map(l => [`highlight.js/languages/${l}.js`, path.join(languages, `${l}.js`)] as [string, string]),
  ])
}

/**
 * Libraries whose only browser-loadable form is CommonJS, as ES modules: highlight.js's
 * `es/core.js` merely re-exports `lib/core.js` (CommonJS, no require() inside), so its text
 * is wrapped once at start in `module.exports` -> `export default`. URL name -> source.
 */
export function wrappedModules (): Map<string, string> {
  const core = path.join(path.dirname(resolve('highlight.js/lib/core')), '..', 'lib', 'core.js')
  const text = readFileSync(core, 'utf8')
  return new Map([
    ['highlight.js/core.js', `const module = { exports: {} };\n${text}\nexport default module.exports;\n`],
  ])
}
