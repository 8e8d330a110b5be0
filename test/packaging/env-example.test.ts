// .env.example lists every environment variable the server reads, and nothing it does not
// read: the sources are scanned for the ways they read one (env.X, env['X'], a name
// destructured from env, a name handed to an env reader such as envInt or lookup, or
// declared as a preset's or cap's `...Env`/`env` key, or a plugin option's default name).
import t from 'tap'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { REPO } from '../helpers/workspace.ts'

const SOURCES = ['core', 'plugins', 'packages/sdk/src']
const SKIP = /(\.test\.ts$|\/fixtures\/|\/test-fixtures\/|test-support\.ts$)/

function * files (dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name)
    if (e.isDirectory()) { if (e.name !== 'node_modules' && e.name !== 'dist') yield * files(p) } else if (/\.(ts|mjs|js)$/.test(e.name) && !SKIP.test(p)) yield p
  }
}

const NAME = '[A-Z][A-Z0-9]*_[A-Z0-9_]+'
const READS = [
  new RegExp(`\\benv\\.(${NAME})`, 'g'),
  new RegExp(`\\benv\\[['"](${NAME})['"]\\]`, 'g'),
  // envInt(env, 'X', ...), cfg.lookup('key', 'X', ...), readers of a name.
  new RegExp(`\\b(?:envInt|lookup)\\([^)]*?['"](${NAME})['"]`, 'g'),
  // { keyEnv: 'X' }, { urlEnv: 'X' }, { env: 'X' }
  new RegExp(`\\b(?:[a-z]+Env|env):\\s*['"](${NAME})['"]`, 'g'),
  // a plugin option naming the variable to read: api_key_env: Type.String({ default: 'X' })
  new RegExp(`_env:\\s*Type\\.String\\(\\{\\s*default:\\s*['"](${NAME})['"]`, 'g'),
]
const DESTRUCTURED = /\{([^}]*)\}\s*=\s*(?:process\.)?env\b/g

/** Variables the server reads, found in its sources. */
function readInSources (): Set<string> {
  const names = new Set<string>()
  for (const dir of SOURCES) {
    for (const f of files(path.join(REPO, dir))) {
      const text = readFileSync(f, 'utf8')
      for (const re of READS) for (const m of text.matchAll(re)) names.add(m[1])
      for (const m of text.matchAll(DESTRUCTURED)) for (const k of m[1].matchAll(new RegExp(`\\b(${NAME})\\b`, 'g'))) names.add(k[1])
    }
  }
  // Read only by the test suite (a PostgreSQL for the SQL kit's own tests).
  names.delete('TEST_POSTGRES_URI')
  return names
}

/** Names in .env.example, set or commented out (`# NAME=`). */
function listedInExample (): Set<string> {
  const text = readFileSync(path.join(REPO, '.env.example'), 'utf8')
  return new Set([...text.matchAll(new RegExp(`^#?\\s*(${NAME}|[A-Z]+)=`, 'gm'))].map(m => m[1]))
}

t.test('the scan finds the readers it is meant to find', async t => {
  const read = readInSources()
  // One per reading style above, so a style the scan stops seeing fails here first.
  for (const n of ['API_HOST', 'AGENT_REQUEST_TIMEOUT_MS', 'DEFAULT_MODEL', 'OPENAI_BASE_URL', 'AGENT_MAX_CONCURRENT_STREAMS', 'POSTGRES_USER', 'ANTHROPIC_API_KEY']) t.ok(read.has(n), n)
})

t.test('.env.example lists every variable the code reads', async t => {
  const listed = listedInExample()
  t.same([...readInSources()].filter(n => !listed.has(n)).sort(), [])
})

t.test('.env.example lists nothing the code does not read', async t => {
  const read = readInSources()
  t.same([...listedInExample()].filter(n => !read.has(n)).sort(), [])
})
