// The telemetry plugin on a real server: one chat with a tool call and memory, traced to an
// OTLP/HTTP receiver on loopback (spans, links, GenAI attributes, trace context in and out,
// to the model upstream, to its embeddings endpoint and to MCP servers over streamable HTTP
// and SSE), and /metrics
// scraped before and after a chat, a tool call and a job run. One server for the file: a
// provider on the fake OpenAI upstream (memory embeds there too: embed-openai), builtin tools, MCP (the SDK-written fixture server,
// once per HTTP transport), the memory stack on PGlite, chat, and the jobs plugin with a test job.
import t from 'tap'
import http from 'node:http'
import { randomBytes } from 'node:crypto'
import parsePrometheusTextFormat from 'parse-prometheus-text-format'
import { startKernel } from '../helpers/kernel.ts'
import { fixturePlugin, repoPlugin, Workspace } from '../helpers/workspace.ts'
import { startFakeOpenAI } from '../fakes/openai-upstream.ts'
import { startOtlpReceiver, type ReceivedSpan } from '../fakes/otlp-receiver.ts'
import { memoryPlugins } from '../memory/memory-kernel.ts'
import { startFixtureServer } from '../fixtures/mcp/server.ts'
import { eventually } from '../helpers/poll.ts'

const MODEL = 'gpt-4o-mini'
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736'
const CALLER_SPAN = '00f067aa0ba902b7'
/** One in-memory PGlite for memory and jobs: loads in a fraction of a folder's time. */
const SQL = { backend: 'pglite', pglite_dir: 'memory' }

const receiver = await startOtlpReceiver(t)
const fake = await startFakeOpenAI(t)
const ws = new Workspace()
t.teardown(() => { ws.remove() })
// One MCP server per HTTP transport, each with a tool of its own name (the fixture's own tools clash).
const mcpHttp = await startFixtureServer('streamable_http', 'traced-http')
const mcpSse = await startFixtureServer('sse', 'traced-sse')
t.teardown(async () => { await Promise.all([mcpHttp.close(), mcpSse.close()]) })
await mcpHttp.addTool('trace_http', 'answered over streamable HTTP')
await mcpSse.addTool('trace_sse', 'answered over SSE')
const mcpServers = ws.write('mcp_servers.json', JSON.stringify({ servers: { http: { transport: 'streamable_http', url: mcpHttp.url, timeout: 10 }, sse: { transport: 'sse', url: mcpSse.url, timeout: 10 } } }))
const s = await startKernel(t, {
  ws,
  plugins: [
    { name: 'telemetry', module: repoPlugin('telemetry') },
    { name: 'openai', module: repoPlugin('provider-openai-compatible'), options: { base_url: fake.url, max_retries: 0 } },
    { name: 'tools-builtin', module: repoPlugin('tools-builtin') },
    { name: 'mcp', module: repoPlugin('mcp') },
    { name: 'providers-api', module: repoPlugin('providers-api') },
    { name: 'prompts', module: repoPlugin('prompts') },
    ...memoryPlugins({ sql: SQL, embedder: { name: 'embed-openai', module: repoPlugin('embed-openai') } }),
    { name: 'chat', module: repoPlugin('chat') },
    { name: 'test-jobs', module: fixturePlugin('test-jobs'), options: { jobs: [{ name: 'quick' }, { name: 'broken', fail: true }] } },
    { name: 'jobs', module: repoPlugin('jobs'), options: SQL },
  ],
  env: {
    OPENAI_API_KEY: 'test-key',
    OPENAI_BASE_URL: fake.url,
    DEFAULT_MODEL: MODEL,
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_SERVICE_NAME: 'agentd-under-test',
    MCP_SERVERS_FILE: mcpServers,
  },
})

/** The model asks for `calculate`, then answers: two model calls around one tool call. */
function scriptToolChat (usage: Array<{ prompt_tokens: number, completion_tokens: number }>): void {
  fake.enqueue(
    { tool_calls: [{ id: 'call_1', name: 'calculate', arguments: { expression: '6*7' } }], finish_reason: 'tool_calls', usage: usage[0] },
    { text: 'It is 42.', usage: usage[1] },
  )
}

/**
 * A POST with the caller's traceparent, sent with node:http: this process's fetch is
 * instrumented too (the server runs in it), and would write a traceparent of its own.
 */
async function postTraced (path: string, body: unknown, traceparent: string): Promise<number> {
  return await new Promise((resolve, reject) => {
    const req = http.request(s.url + path, { method: 'POST', headers: { 'content-type': 'application/json', traceparent } }, (res) => { res.resume(); res.on('end', () => { resolve(res.statusCode ?? 0) }) })
    req.on('error', reject)
    req.end(JSON.stringify(body))
  })
}

async function flush (): Promise<void> { await s.kernel.current?.app.telemetry?.flush() }

t.test('one chat with a tool call and memory: its spans, linked, with GenAI attributes, and the trace context in and out', async t => {
  scriptToolChat([{ prompt_tokens: 31, completion_tokens: 9 }, { prompt_tokens: 57, completion_tokens: 5 }])
  const upstreamBefore = fake.completions.length
  const status = await postTraced('/api/agent/chat', { message: 'What is six times seven?', use_memory: true }, `00-${TRACE_ID}-${CALLER_SPAN}-01`)
  t.equal(status, 200)
  await flush()
  const spans = receiver.spans.filter(x => x.traceId === TRACE_ID)
  const byId = new Map(spans.map(x => [x.spanId, x]))
  const ancestors = (x: ReceivedSpan): string[] => { const out: string[] = []; let p = x.parentSpanId; while (p !== undefined && byId.has(p)) { out.push(p); p = byId.get(p)?.parentSpanId } return out }

  const server = spans.find(x => x.name === 'POST /api/agent/chat')
  t.ok(server, `the request's span (got ${spans.map(x => x.name).join(', ')})`)
  if (server === undefined) return
  t.equal(server.kind, 2, 'a server span')
  t.equal(server.parentSpanId, CALLER_SPAN, 'the caller\'s traceparent is its parent')
  t.equal(server.attributes['http.route'], '/api/agent/chat')
  t.equal(server.resource['service.name'], 'agentd-under-test', 'OTEL_SERVICE_NAME names the service')

  const models = spans.filter(x => x.name === `chat ${MODEL}`)
  t.equal(models.length, 2, 'one span per model call')
  t.same(models.map(m => [m.attributes['gen_ai.usage.input_tokens'], m.attributes['gen_ai.usage.output_tokens']]), [[31, 9], [57, 5]], 'token counts are the provider\'s usage')
  t.same(models.map(m => m.attributes['gen_ai.response.finish_reasons']), [['tool_calls'], ['stop']])
  for (const m of models) {
    t.match(m.attributes, { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': MODEL, 'gen_ai.response.model': String })
    t.equal(m.kind, 3, 'a client span')
    t.ok(ancestors(m).includes(server.spanId), 'under the request\'s span')
    t.equal(m.attributes['gen_ai.input.messages'], undefined, 'no prompt text by default')
  }

  const tool = spans.find(x => x.name === 'execute_tool calculate')
  t.match(tool?.attributes, { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'calculate', 'gen_ai.tool.call.id': 'call_1', 'agentd.tool.server': String, 'agentd.tool.outcome': 'ok' })
  t.ok(tool !== undefined && ancestors(tool).includes(server.spanId), 'the tool call is under the request\'s span')

  const recall = spans.find(x => x.name === 'memory.recall')
  t.ok(recall !== undefined && ancestors(recall).includes(server.spanId), 'recall is under the request\'s span')
  t.ok(Array.isArray(recall?.attributes['agentd.recall.techniques']) && (recall?.attributes['agentd.recall.techniques'] as string[]).length > 0, `recall names its techniques (${String(recall?.attributes['agentd.recall.techniques'])})`)

  // Out: each request to the upstream carried this trace, its parent a span under that call's model span.
  const sent = fake.completions.slice(upstreamBefore)
  t.equal(sent.length, 2)
  for (const [i, req] of sent.entries()) {
    const m = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(String(req.headers.traceparent))
    t.ok(m, `upstream request ${i} has a traceparent (${String(req.headers.traceparent)})`)
    if (m === null) continue
    t.equal(m[1], TRACE_ID, 'the same trace')
    const parent = byId.get(m[2])
    t.ok(parent !== undefined && (parent.spanId === models[i].spanId || ancestors(parent).includes(models[i].spanId)), 'sent from within its model call\'s span')
  }
})

t.test('a recall\'s query embedding carries the recall\'s span to the embeddings endpoint', async t => {
  // Its own query, never stored: memory embeds a text once (a chat's message serves its recall
  // and its stored turn, whichever comes first), so in a chat the request may be the turn's.
  const trace = randomBytes(16).toString('hex')
  const requestsBefore = fake.requests.length
  t.equal(await postTraced('/api/memory/recall', { query: 'Which ferry leaves for Harwick first?', top_k: 3 }, `00-${trace}-${CALLER_SPAN}-01`), 200)
  await flush()
  const recall = receiver.spans.find(x => x.traceId === trace && x.name === 'memory.recall')
  t.ok(recall, `the recall's span (got ${receiver.spans.filter(x => x.traceId === trace).map(x => x.name).join(', ')})`)
  const server = receiver.spans.find(x => x.traceId === trace && x.name === 'POST /api/memory/recall')
  t.equal(recall?.parentSpanId, server?.spanId, 'under the request\'s span')
  const embedded = fake.requests.slice(requestsBefore).filter(r => r.path.endsWith('/embeddings') && (r.body.input as string[] | undefined)?.[0] === 'Which ferry leaves for Harwick first?')
  t.same(embedded.map(r => r.headers.traceparent), [`00-${trace}-${recall?.spanId ?? '?'}-01`], 'one embedding request, its parent the recall\'s span')
})

t.test('a tool call on an MCP server over HTTP carries its execute_tool span\'s trace context', async t => {
  await eventually('both MCP servers connected', async () => {
    const { servers } = (await s.json<{ servers: Array<{ status: string }> }>('/api/mcp/servers')).body
    return servers.length === 2 && servers.every(x => x.status === 'connected') ? true : undefined
  })
  for (const [tool, fx] of [['trace_http', mcpHttp], ['trace_sse', mcpSse]] as const) {
    const traceId = randomBytes(16).toString('hex')
    fake.enqueue({ tool_calls: [{ id: `call_${tool}`, name: tool, arguments: {} }], finish_reason: 'tool_calls' }, { text: 'Done.' })
    t.equal(await postTraced('/api/agent/chat', { message: `use ${tool}`, use_memory: false }, `00-${traceId}-${CALLER_SPAN}-01`), 200)
    await flush()
    const span = receiver.spans.find(x => x.traceId === traceId && x.name === `execute_tool ${tool}`)
    t.match(span?.attributes, { 'gen_ai.tool.name': tool, 'agentd.tool.outcome': 'ok' }, `${tool}: its execute_tool span`)
    const sent = fx.toolCalls().filter(c => c.name === tool)
    t.equal(sent.length, 1, `${tool}: one tools/call reached the server`)
    t.equal(sent[0]?.headers.traceparent, `00-${traceId}-${span?.spanId ?? '?'}-01`, `${tool}: the request carried the trace, its parent the tool call's span`)
  }
})

t.test('the job run is a span of its own', async t => {
  const res = await s.post('/api/jobs/quick/run', {})
  t.equal(res.status, 200)
  await flush()
  const job = receiver.spans.find(x => x.name === 'job quick')
  t.match(job?.attributes, { 'agentd.job.name': 'quick', 'agentd.job.trigger': 'manual' })
})

interface Scrape { families: ReturnType<typeof parsePrometheusTextFormat>, text: string }

async function scrape (): Promise<Scrape> {
  const res = await s.get('/metrics')
  if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`)
  const text = await res.text()
  return { families: parsePrometheusTextFormat(text), text }
}

const hasLabels = (have: Record<string, string> | undefined, want: Record<string, string>): boolean => Object.entries(want).every(([k, v]) => have?.[k] === v)

/**
 * A counter's or gauge's value summed over the series whose labels include `labels` (0 when
 * absent), from the parsed text. A histogram's observation count is read from its `_count`
 * lines: the parser merges a histogram's labelled series into one.
 */
function read (scraped: Scrape, name: string, labels: Record<string, string> = {}): number {
  const f = scraped.families.find(x => x.name === name)
  if (f?.type === 'HISTOGRAM') {
    let n = 0
    for (const m of scraped.text.matchAll(new RegExp(`^${name}_count(?:\\{(.*)\\})? (\\S+)$`, 'gm'))) {
      const have = Object.fromEntries([...(m[1] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map(x => [x[1], x[2]]))
      if (hasLabels(have, labels)) n += Number(m[2])
    }
    return n
  }
  return (f?.metrics ?? []).filter(m => hasLabels(m.labels, labels)).reduce((n, m) => n + Number(m.value ?? 0), 0)
}

t.test('/metrics moves by exactly what happened: a chat with a tool call, then a job run and a failed one', async t => {
  const before = await scrape()
  scriptToolChat([{ prompt_tokens: 20, completion_tokens: 4 }, { prompt_tokens: 30, completion_tokens: 6 }])
  t.equal((await s.post('/api/agent/chat', { message: 'six times seven?', use_memory: true })).status, 200)
  t.equal((await s.post('/api/jobs/quick/run', {})).status, 200)
  t.equal((await s.post('/api/jobs/broken/run', {})).status, 200)
  const after = await scrape()
  const moved = (name: string, labels?: Record<string, string>): number => read(after, name, labels) - read(before, name, labels)
  const model = { provider: 'openai', model: MODEL }
  t.equal(moved('agentd_http_requests_total', { route: '/api/agent/chat', status: '200' }), 1, 'one chat request')
  t.equal(moved('agentd_http_requests_total', { route: '/metrics', status: '200' }), 1, 'the first scrape (the second is counted when it ends)')
  t.equal(moved('agentd_model_calls_total', { ...model, outcome: 'ok' }), 2, 'two model calls')
  t.equal(moved('agentd_model_call_duration_seconds', model), 2)
  t.equal(moved('agentd_model_tokens_total', { ...model, type: 'input' }), 50, 'input tokens as the provider reported')
  t.equal(moved('agentd_model_tokens_total', { ...model, type: 'output' }), 10, 'output tokens as the provider reported')
  t.equal(moved('agentd_tool_calls_total', { outcome: 'ok' }), 1, 'one tool call')
  t.equal(moved('agentd_memory_recall_duration_seconds'), 1, 'one recall')
  t.equal(moved('agentd_job_runs_total', { job: 'quick', outcome: 'success' }), 1)
  t.equal(moved('agentd_job_runs_total', { job: 'broken', outcome: 'failure' }), 1)
  t.equal(moved('agentd_job_run_duration_seconds', { job: 'quick' }), 1)
  t.equal(read(after, 'agentd_sse_streams_open'), 0, 'no stream open')
  t.equal(read(after, 'agentd_memory_outbox_depth'), 0, 'nothing waiting in the outbox')
})

t.test('a reload keeps the registry: counts go on, the reload is counted', async t => {
  const before = await scrape()
  const outcome = await s.kernel.reload('test')
  t.ok(outcome.ok, outcome.error ?? 'the reload succeeded')
  const after = await scrape()
  t.equal(read(after, 'agentd_generation_reloads_total') - read(before, 'agentd_generation_reloads_total'), 1)
  t.ok(read(after, 'agentd_model_calls_total') >= read(before, 'agentd_model_calls_total'), 'counts survived the swap')
  t.equal(read(after, 'agentd_generation'), outcome.generation)
})
