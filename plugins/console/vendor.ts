// The browser libraries the console imports, resolved from node_modules at start: each
// package's own ES-module build, served as is (no bundler). The import map in
// public/index.html names them by these URLs under /console/vendor/.
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const resolve = (spec: string): string => fileURLToPath(import.meta.resolve(spec))

/** URL name under /console/vendor/ -> absolute file. */
export function vendorFiles (): Map<string, string> {
  const stream = resolve('eventsource-parser/stream')
  return new Map([
    ['preact.mjs', resolve('preact')],
    ['hooks.mjs', resolve('preact/hooks')],
    ['htm.mjs', resolve('htm')],
    // stream.js imports "./index.js": both are served from one folder.
    ['eventsource-parser/stream.js', stream],
    ['eventsource-parser/index.js', path.join(path.dirname(stream), 'index.js')],
  ])
}
