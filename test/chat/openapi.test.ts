// The OpenAPI document of the whole plugin set (plugins.json): valid OpenAPI 3.1 (checked
// by a maintained validator), every registered route in it with a response schema, every
// operation's errors as a named component, the API-key schemes applied, the streams'
// events described, and /docs usable with the key required.
import t from 'tap'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { Validator } from '@seriousme/openapi-schema-validator'
import { startKernel } from '../helpers/kernel.ts'
import { REPO, fixturePlugin } from '../helpers/workspace.ts'
import { routeList } from '../fixtures/plugins/route-list/index.ts'

interface Response { description: string, content?: Record<string, { schema?: { $ref?: string, anyOf?: Array<{ title?: string }> } }> }
interface Operation { responses: Record<string, Response>, security?: Array<Record<string, string[]>> }
interface Doc { openapi: string, paths: Record<string, Record<string, Operation>>, components: { schemas: Record<string, unknown>, securitySchemes: Record<string, Record<string, string>> } }

const METHODS = ['get', 'put', 'post', 'delete', 'patch']
/** The kernel's own routes, registered before any plugin (route-list sees only those after it). */
const CORE = [['GET', '/api/index'], ['GET', '/api/health'], ['GET', '/api/plugins'], ['POST', '/api/plugins/reload']]

const shipped = (JSON.parse(readFileSync(path.join(REPO, 'plugins.json'), 'utf8')) as { plugins: Array<{ name: string, module: string, options?: Record<string, unknown> }> }).plugins
  .map(p => ({ ...p, module: path.join(REPO, p.module) }))

t.test('the whole plugin set\'s document', async t => {
  const s = await startKernel(t, {
    plugins: [{ name: 'route-list', module: fixturePlugin('route-list') }, ...shipped],
    env: { AGENT_API_KEY_REQUIRED: 'true', AGENT_API_KEY: 'k-openapi-test' },
  })
  t.same(s.kernel.api.plugins().filter(p => p.status === 'failed'), [], 'every shipped plugin loaded')
  // No key: the UI and the document load without one, so Authorize can be used.
  const res = await s.get('/docs/json')
  t.equal(res.status, 200, '/docs/json needs no key')
  t.equal((await s.get('/docs')).status < 400, true, '/docs (the UI) needs no key')
  t.equal((await s.get('/api/plugins')).status, 401, 'while the API does')
  const doc = await res.json() as Doc
  const operations = Object.entries(doc.paths).flatMap(([p, item]) => Object.entries(item).filter(([m]) => METHODS.includes(m)).map(([m, op]) => ({ key: `${m.toUpperCase()} ${p}`, path: p, op })))

  t.test('is valid OpenAPI 3.1', async t => {
    const result = await new Validator().validate(doc as unknown as Parameters<Validator['validate']>[0])
    t.equal(doc.openapi, '3.1.0')
    t.same(result.errors ?? [], [])
    t.equal(result.valid, true)
  })

  t.test('lists every registered route', async t => {
    const documented = new Set(operations.map(o => o.key))
    const registered = [...CORE, ...routeList().filter(r => !r.hidden && r.method !== 'HEAD').map(r => [r.method, r.url])]
    t.ok(registered.length > 80, `${registered.length} routes registered`)
    // `:id` and a trailing `*` are `{id}` and `{*}` in the document.
    const missing = registered.map(([m, u]) => `${m} ${u.replace(/:([A-Za-z_]+)/g, '{$1}').replace(/\*$/, '{*}')}`).filter(k => !documented.has(k))
    t.same(missing, [])
  })

  t.test('every operation has a success response with a schema', async t => {
    const without = operations.filter(({ op }) => !Object.entries(op.responses).some(([code, r]) => /^2/.test(code) && Object.values(r.content ?? {}).some(c => c.schema !== undefined)))
    t.same(without.map(o => o.key), [])
  })

  t.test('every operation documents its errors with a named component', async t => {
    const wrong: string[] = []
    for (const { key, path: p, op } of operations) {
      const expected = p.startsWith('/v1/') ? 'OpenAIError' : p === '/mcp' ? 'JsonRpcError' : 'Error'
      for (const range of ['4XX', '5XX']) {
        const ref = op.responses[range]?.content?.['application/json']?.schema?.$ref
        if (ref !== `#/components/schemas/${expected}`) wrong.push(`${key} ${range}: ${ref}`)
      }
    }
    t.same(wrong, [])
    t.match(doc.components.schemas.Error, { type: 'object', required: ['error', 'code', 'statusCode'] })
  })

  t.test('the API key: both ways of sending it, on every operation but health, the A2A card and the OAuth callback', async t => {
    t.match(doc.components.securitySchemes, { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' }, bearerAuth: { type: 'http', scheme: 'bearer' } })
    const open = operations.filter(({ op }) => op.security === undefined || op.security.length === 0).map(o => o.key)
    // The A2A agent card is public by design: a client discovers the security scheme from it.
    // The MCP client's OAuth callback is opened by a browser coming back from an authorization
    // server, which holds no key; it acts only on a state agentd issued (test/mcp/oauth.test.ts).
    t.same(open.sort(), ['GET /.well-known/agent-card.json', 'GET /api/health', 'GET /api/mcp/oauth/callback'])
    t.same(doc.paths['/v1/chat/completions'].post.security, [{ apiKey: [] }, { bearerAuth: [] }])
  })

  t.test('the streams\' events are described', async t => {
    const events = (p: string): Array<string | undefined> => doc.paths[p].post.responses['200'].content?.['text/event-stream']?.schema?.anyOf?.map(e => e.title) ?? []
    t.same(events('/api/agent/chat/stream'), ['start', 'chunk', 'tool_call', 'tool_result', 'done', 'error'])
    t.equal(events('/v1/chat/completions').length, 5, 'the chunks, the last chunk, usage, an error, [DONE]')
    t.ok(doc.paths['/v1/chat/completions'].post.responses['200'].content?.['application/json'], 'and the plain answer')
  })
})
