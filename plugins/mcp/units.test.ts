// Small pure parts: tool naming, content conversion, backoff, redaction.
import t from 'tap'
import { assignToolNames, sanitizeToolName } from './names.ts'
import { resultToText } from './content.ts'
import { backoffDelay } from './backoff.ts'
import { makeRedactor } from './redact.ts'

t.test('tool names: plain when unique, qualified when two servers clash, always provider-safe', async t => {
  const named = assignToolNames([{ server: 'a', tool: 'echo' }, { server: 'b', tool: 'echo' }, { server: 'b', tool: 'sum' }])
  t.same(named.map(n => n.name), ['a__echo', 'b__echo', 'sum'])
  t.equal(sanitizeToolName('files/read.text'), 'files_read_text')
  const long = sanitizeToolName('x'.repeat(100))
  t.equal(long.length, 64)
  t.not(sanitizeToolName('x'.repeat(100)), sanitizeToolName('x'.repeat(99) + 'y'))
  const dup = assignToolNames([{ server: 'a', tool: 'b__c' }, { server: 'a', tool: 'c' }, { server: 'b', tool: 'c' }])
  t.equal(new Set(dup.map(d => d.name)).size, 3, 'a qualified name never collides with a plain one')
})

t.test('content blocks become tool message text', async t => {
  t.equal(resultToText({ content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] }), 'a\nb')
  t.equal(resultToText({ content: [{ type: 'audio', data: 'AAAA', mimeType: 'audio/wav' }] }), '[audio: audio/wav, 3 bytes]')
  t.equal(resultToText({ content: [{ type: 'resource', resource: { uri: 'x://b', blob: 'AAAA', mimeType: 'application/zip' } }] }), '[resource x://b: application/zip, 3 bytes]')
  t.equal(resultToText({ content: [{ type: 'resource_link', uri: 'x://l', name: 'L', mimeType: 'text/plain' }] }), '[resource link: L x://l (text/plain)]')
  t.equal(resultToText({ content: [], structuredContent: { n: 1 } }), '{"n":1}')
  t.equal(resultToText({ toolResult: { ok: true } }), '{"ok":true}')
})

t.test('backoff doubles up to its cap', async t => {
  const o = { initialMs: 100, maxMs: 1000 }
  const none = (): number => 0
  t.same([1, 2, 3, 4, 5, 50].map(a => backoffDelay(a, o, none)), [100, 200, 400, 800, 1000, 1000])
  t.ok(backoffDelay(2, o, () => 1) <= 240)
  t.equal(backoffDelay(10, o, () => 1), 1000, 'jitter never passes the cap')
})

t.test('redaction replaces secrets (and their URL encoding), not short values', async t => {
  const r = makeRedactor(['s3cr3t/value', 'on'])
  t.equal(r('a s3cr3t/value b s3cr3t%2Fvalue c on'), 'a [redacted] b [redacted] c on')
})

t.test('http falls back to SSE only when there is no streamable endpoint', async t => {
  const { noStreamableEndpoint } = await import('./connection.ts')
  const { StreamableHTTPError } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js')
  for (const code of [404, 405, -1]) t.ok(noStreamableEndpoint(new StreamableHTTPError(code, 'x')), `HTTP ${code}`)
  for (const code of [401, 403, 500]) t.notOk(noStreamableEndpoint(new StreamableHTTPError(code, 'x')), `HTTP ${code}`)
  t.ok(noStreamableEndpoint(new SyntaxError('Unexpected token <')))
  t.notOk(noStreamableEndpoint(new TypeError('fetch failed')), 'a refused connection fails over SSE the same way')
})
