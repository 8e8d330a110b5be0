// The original system's web client (QR-Madness/agentx, client/src/lib/api.ts and the memory
// API module beside it), call for call: each of its 42 API functions sent the way it sends
// it (JSON Content-Type on every request, the body it builds) against one started agentd
// with the real OpenAI-compatible provider on the fake upstream, checking the fields the
// client and its panels read. Then what any client may send: JSON nested thousands of
// levels deep to every POST route, and an upload to a path that takes none.
import t from 'tap'
import { startKernel, type Started } from '../helpers/kernel.ts'
import { memoryWithRecall, repoPlugin, Workspace, type PluginSpec } from '../helpers/workspace.ts'
import { startFakeOpenAI } from '../fakes/openai-upstream.ts'
import { parseSse } from '../chat/helpers.ts'

const MODEL = 'gpt-4o-mini'

/** A client-side failure as the client builds it: status and the parsed body. */
class ApiError extends Error {
  constructor (readonly status: number, readonly details: unknown) { super(`API request failed: ${status} ${JSON.stringify(details)}`) }
}

type Json = any // eslint-disable-line @typescript-eslint/no-explicit-any -- answers are checked field by field

/** The client's request(): `Content-Type: application/json` always, throws on a non-2xx. */
function client (s: Started): (path: string, init?: { method?: string, body?: unknown }) => Promise<Json> {
  return async (path, init = {}) => {
    const res = await fetch(s.url + path, {
      method: init.method ?? 'GET',
      headers: { 'Content-Type': 'application/json' },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    })
    const text = await res.text()
    const body = text === '' ? undefined : JSON.parse(text)
    if (!res.ok) throw new ApiError(res.status, body)
    return body
  }
}

const plugins = (fakeUrl: string): PluginSpec[] => [
  { name: 'tools-builtin', module: repoPlugin('tools-builtin'), options: { default_timezone: 'UTC' } },
  { name: 'tools-api', module: repoPlugin('tools-api') },
  { name: 'mcp', module: repoPlugin('mcp') },
  { name: 'openai', module: repoPlugin('provider-openai-compatible'), options: { base_url: fakeUrl, max_retries: 0 } },
  { name: 'anthropic', module: repoPlugin('provider-anthropic') },
  { name: 'providers-api', module: repoPlugin('providers-api') },
  { name: 'prompts', module: repoPlugin('prompts') },
  { name: 'chat', module: repoPlugin('chat') },
  { name: 'config-api', module: repoPlugin('config-api') },
  { name: 'language-detect', module: repoPlugin('language-detect'), options: { backend: 'cld3' } },
  // The chat backend: NLLB would need a model download.
  { name: 'translation', module: repoPlugin('translation'), options: { backend: 'chat' } },
  { name: 'cot', module: repoPlugin('strategy-cot') },
  { name: 'agent', module: repoPlugin('agent') },
  // The memory plugins and every shipped technique, as the shipped plugins.json has them.
  ...memoryWithRecall({ models: true }),
  { name: 'jobs', module: repoPlugin('jobs'), options: { poll_seconds: 0.5 } },
  // Not the client's, but POST routes of the shipped set the deep-JSON check below covers.
  { name: 'openai-api', module: repoPlugin('openai-api') },
  { name: 'mcp-server', module: repoPlugin('mcp-server') },
]

/** The keys of the client's ConsolidationSettings and RecallSettings interfaces. */
const MEMORY_SETTINGS = ['extraction_enabled', 'extraction_provider', 'extraction_model', 'extraction_temperature', 'extraction_max_tokens', 'extraction_condense_facts',
  'extraction_system_prompt', 'relevance_filter_enabled', 'relevance_filter_provider', 'relevance_filter_model', 'relevance_filter_max_tokens', 'relevance_filter_prompt',
  'entity_linking_enabled', 'entity_linking_similarity_threshold', 'fact_confidence_threshold', 'promotion_min_confidence', 'job_consolidate_interval', 'job_promote_interval',
  'job_entity_linking_interval', 'contradiction_detection_enabled', 'correction_detection_enabled', 'entity_types', 'relationship_types', 'default_extraction_prompt', 'default_relevance_prompt']
const RECALL_SETTINGS = ['recall_enable_hybrid', 'recall_enable_entity_centric', 'recall_enable_query_expansion', 'recall_enable_hyde', 'recall_enable_self_query',
  'recall_hybrid_bm25_weight', 'recall_hybrid_vector_weight', 'recall_hybrid_rrf_k', 'recall_entity_similarity_threshold', 'recall_entity_max_entities', 'recall_entity_graph_depth',
  'recall_expansion_max_variants', 'recall_hyde_provider', 'recall_hyde_model', 'recall_hyde_temperature', 'recall_hyde_max_tokens', 'recall_self_query_provider',
  'recall_self_query_model', 'recall_self_query_temperature', 'recall_self_query_max_tokens']

t.test('the original client against agentd', async t => {
  // A fixed answer: the default echo would make consolidation drop the user's sentences as the agent's.
  const fake = await startFakeOpenAI(t, { models: [MODEL, 'gpt-4o'], fallback: () => ({ text: 'Noted, thank you.' }) })
  const ws = new Workspace()
  t.teardown(() => { ws.remove() })
  ws.write('mcp_servers.json', JSON.stringify({ servers: {} }))
  // Offline extraction: the consolidation below needs no scripted model answer.
  ws.write('data/memory_settings.json', JSON.stringify({ extraction_mode: 'offline' }))
  const s = await startKernel(t, {
    ws, plugins: plugins(fake.url),
    env: { OPENAI_API_KEY: 'test-key', DEFAULT_MODEL: `openai/${MODEL}`, LOCAL_MODEL_URL: 'http://127.0.0.1:9/v1', MCP_SERVERS_FILE: 'mcp_servers.json' },
  })
  const api = client(s)
  const covered = new Set<string>()
  const call = async (fn: string, path: string, init?: { method?: string, body?: unknown }): Promise<Json> => { covered.add(fn); return await api(path, init) }

  t.test('health, providers, models', async t => {
    const h = await call('health', '/api/health')
    t.match(h, { status: /^(healthy|degraded)$/, api: { status: String } })
    const hm = await call('health', '/api/health?include_memory=true')
    t.type(hm.memory, 'object', 'include_memory: a memory section')
    const { providers } = await call('listProviders', '/api/providers')
    for (const p of providers) t.ok(typeof p.name === 'string' && typeof p.available === 'boolean' && Array.isArray(p.models), `${p.name}: name, available, models[]`)
    t.same(providers.find((p: Json) => p.name === 'anthropic').models, [], 'not configured: models: []')
    const { models } = await call('listModels', '/api/providers/models')
    t.ok(models.length >= 2)
    for (const m of models) t.equal(m.id, `${m.provider as string}/${m.name as string}`, 'id is provider/model')
    const health = await call('checkProvidersHealth', '/api/providers/health')
    t.match(health.providers.openai, { status: 'healthy' })
    // The id from the list is one chat accepts.
    const chat = await api('/api/agent/chat', { method: 'POST', body: { message: 'hi', model: models[0].id, use_memory: false } })
    t.equal(typeof chat.response, 'string')
  })

  t.test('tool servers and prompts', async t => {
    t.same((await call('listMCPServers', '/api/mcp/servers')).servers, [])
    t.ok(Array.isArray((await call('listMCPTools', '/api/mcp/tools')).tools))
    t.ok(Array.isArray((await call('listMCPResources', '/api/mcp/resources')).resources))
    const { profiles } = await call('listPromptProfiles', '/api/prompts/profiles')
    t.ok(profiles.length > 0)
    for (const p of profiles) t.ok(typeof p.id === 'string' && typeof p.name === 'string' && typeof p.is_default === 'boolean')
    const one = await call('getPromptProfile', `/api/prompts/profiles/${profiles[0].id as string}`)
    t.match(one, { profile: { id: profiles[0].id }, composed_prompt: String })
    t.match(await call('getGlobalPrompt', '/api/prompts/global'), { global_prompt: { content: String, enabled: Boolean } })
    t.match(await call('updateGlobalPrompt', '/api/prompts/global/update', { method: 'POST', body: { content: 'Be brief.', enabled: true } }), { global_prompt: { content: 'Be brief.', enabled: true } })
    t.ok(Array.isArray((await call('listPromptSections', '/api/prompts/sections')).sections))
    t.match(await call('composePrompt', '/api/prompts/compose'), { system_prompt: /Be brief\./, profile_id: String })
    t.match(await call('composePrompt', `/api/prompts/compose?profile_id=${profiles[0].id as string}`), { profile_id: profiles[0].id })
    t.match(await call('getMCPToolsPrompt', '/api/prompts/mcp-tools'), { mcp_tools_prompt: String, tools_count: Number })
  })

  t.test('config, translation, language detection', async t => {
    const up = await call('updateConfig', '/api/config/update', { method: 'POST', body: { preferences: { default_model: `openai/${MODEL}` }, llm_settings: { default_temperature: 0.5 } } })
    t.match(up, { status: String, message: String, updated: Array })
    const tr = await call('translate', '/api/tools/translate', { method: 'POST', body: { text: 'Good morning, this is a longer English sentence about the weather today.', targetLanguage: 'fra_Latn' } })
    t.match(tr, { original: /^Good morning/, translatedText: String, targetLanguage: 'fra_Latn' })
    const lang = await call('detectLanguage', '/api/tools/language-detect-20', { method: 'POST', body: { text: 'Ceci est une phrase en français, assez longue pour être reconnue.' } })
    t.match(lang, { detected_language: 'fr', confidence: Number })
  })

  t.test('agent tab and chat', async t => {
    const run = await call('runAgent', '/api/agent/run', { method: 'POST', body: { task: 'Say hello', reasoning_strategy: 'cot', model: `openai/${MODEL}` } })
    t.type(run.result, 'string', 'result: the answer')
    t.equal(run.result, run.answer)
    t.ok(run.result.length > 0)
    const st = await call('getAgentStatus', '/api/agent/status')
    t.match(st, { status: 'idle', active_sessions: 0 })
    const c = await call('chat', '/api/agent/chat', { method: 'POST', body: { message: 'My name is Ada and I live in Lisbon.', model: MODEL, use_memory: true, temperature: 0.3 } })
    t.match(c, { response: String, session_id: String })
    covered.add('streamChat')
    const res = await fetch(`${s.url}/api/agent/chat/stream`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ message: 'I work at Acme.', session_id: c.session_id, model: MODEL }) })
    t.equal(res.status, 200)
    const events = parseSse(await res.text())
    const byType = (e: string): Json => events.find(x => x.event === e)?.data
    t.match(byType('start'), { task_id: String, model: String })
    t.ok(events.some(x => x.event === 'chunk' && typeof x.data.content === 'string'), 'chunks with content')
    t.match(byType('done'), { task_id: String, total_time_ms: Number, session_id: c.session_id })
  })

  t.test('jobs panel: list, detail, run, the toggle round trip, clear-stuck', async t => {
    const list = await call('listJobs', '/api/jobs')
    t.match(list.worker, { id: String, status: 'running', uptime_seconds: Number, jobs_run: Number })
    const promote = list.jobs.find((j: Json) => j.name === 'promote')
    // (It may have run on its schedule already: the first slot is asked for at start.)
    t.match(promote, { description: String, interval_minutes: 60, status: 'idle', last_error: null, run_count: Number, success_count: Number, failure_count: 0, avg_duration_ms: Number, success_rate: Number })
    t.ok(promote.success_rate >= 0 && promote.success_rate <= 1, 'success_rate: 0-1')

    const ran = await call('runJob', '/api/jobs/promote/run', { method: 'POST' })
    t.match(ran, { success: true, result: { facts_promoted: Number } })
    t.ok(Number.isInteger(ran.duration_ms))
    const detail = await call('getJob', '/api/jobs/promote')
    t.match(detail.job, { status: 'idle', success_rate: 1, last_success: String })
    t.ok(detail.job.run_count >= promote.run_count + 1, 'counted')
    t.ok(Number.isInteger(detail.job.avg_duration_ms) && Number.isInteger(detail.job.last_duration_ms))
    t.match(detail.history[0], { timestamp: String, success: true, items_processed: 0, metrics: Object })
    t.ok(Number.isInteger(detail.history[0].duration_ms))
    const after = await call('listJobs', '/api/jobs')
    t.ok(after.worker.jobs_run >= 1, 'the worker counts the runs it finished')
    t.type(after.worker.last_heartbeat, 'string')

    // The panel's button: enabled = (status === 'disabled').
    const toggle = async (job: Json): Promise<Json> => await call('toggleJob', `/api/jobs/${job.name as string}/toggle`, { method: 'POST', body: { enabled: job.status === 'disabled' } })
    const find = async (): Promise<Json> => (await api('/api/jobs')).jobs.find((j: Json) => j.name === 'promote')
    t.same(await toggle(await find()), { job: 'promote', enabled: false })
    t.match(await find(), { status: 'disabled', enabled: false }, 'a disabled job says so')
    t.same(await toggle(await find()), { job: 'promote', enabled: true }, 'and the same button enables it again')
    t.match(await find(), { status: 'idle', enabled: true })

    t.match(await call('clearStuckJobs', '/api/jobs/clear-stuck', { method: 'POST' }), { success: true, cleared_jobs: [], message: String })
  })

  t.test('memory explorer: consolidate, lists, graph, stats, edits, reset', async t => {
    const all = await call('consolidateNow', '/api/memory/consolidate', { method: 'POST', body: {} })
    t.match(all, { success: true, duration_ms: Number, results: { consolidate: Object, patterns: Object, promote: Object }, errors: [] })
    t.ok(all.results.consolidate.conversations >= 1, 'the chat above was consolidated')
    t.match(await call('consolidateNow', '/api/memory/consolidate', { method: 'POST', body: { jobs: ['promote'] } }), { success: true, errors: [] })

    const { channels } = await call('listMemoryChannels', '/api/memory/channels')
    for (const c of channels) t.match(c, { name: String, is_default: Boolean, item_counts: { turns: Number, entities: Number, facts: Number, strategies: Number, goals: Number } })
    const ents = await call('listMemoryEntities', '/api/memory/entities?page=1&limit=20')
    t.match(ents, { total: Number, page: 1, limit: 20, has_next: Boolean })
    const lisbon = ents.entities.find((e: Json) => e.name === 'Lisbon')
    t.match(lisbon, { id: String, type: String, channel: String, salience: Number, access_count: Number }, 'an entity from the chat')
    t.match(await call('listMemoryEntities', '/api/memory/entities?search=lisb&type=Location'), { entities: [{ id: lisbon.id }] })
    const graph = await call('getEntityGraph', `/api/memory/entities/${lisbon.id as string}/graph?depth=2`)
    t.match(graph, { entity: { id: lisbon.id }, facts: Array, relationships: Array })
    const facts = await call('listMemoryFacts', '/api/memory/facts?min_confidence=0.1&limit=50')
    t.match(facts, { total: Number, page: 1, has_next: Boolean })
    const fact = facts.facts.find((f: Json) => /Lisbon/.test(f.claim))
    t.match(fact, { id: String, confidence: Number, source: String, channel: String, created_at: String, entity_ids: Array })
    t.match(await call('listMemoryStrategies', '/api/memory/strategies?page=1'), { strategies: Array, total: Number, page: 1, limit: Number, has_next: Boolean })
    const stats = await call('getMemoryStats', '/api/memory/stats')
    t.match(stats, { totals: { entities: Number, facts: Number, strategies: Number, turns: Number }, by_channel: Object })

    t.match(await call('updateMemoryFact', `/api/memory/facts/${fact.id as string}`, { method: 'PATCH', body: { confidence: 0.5 } }), { fact: { id: fact.id, confidence: 0.5 } })
    t.match(await call('deleteMemoryFact', `/api/memory/facts/${fact.id as string}`, { method: 'DELETE' }), { deleted: true, fact: { id: fact.id } })
    t.match(await call('updateMemoryEntity', `/api/memory/entities/${lisbon.id as string}`, { method: 'PATCH', body: { description: 'a city' } }), { entity: { id: lisbon.id, description: 'a city' } })
    t.match(await call('deleteMemoryEntity', `/api/memory/entities/${lisbon.id as string}`, { method: 'DELETE' }), { deleted: true, entity: { id: lisbon.id, name: 'Lisbon' } })

    t.match(await call('resetMemory', '/api/memory/reset', { method: 'POST', body: { delete_memories: false } }), { success: true, conversations_reset: Number })
  })

  t.test('settings panels: load, save back whole, change one key', async t => {
    const mem = await call('getConsolidationSettings', '/api/memory/settings')
    t.same(MEMORY_SETTINGS.filter(k => !(k in mem)), [], 'every key the panel reads')
    t.same(mem.entity_types.length > 0 && mem.relationship_types.length > 0, true)
    t.match(await call('updateConsolidationSettings', '/api/memory/settings', { method: 'POST', body: mem }), { success: true, updated: Array }, 'what GET answered, posted back whole')
    const saved = await call('updateConsolidationSettings', '/api/memory/settings', { method: 'POST', body: { ...mem, job_promote_interval: 30, extraction_temperature: 0.2 } })
    t.ok(saved.updated.includes('job_promote_interval'))
    t.match(await api('/api/memory/settings'), { job_promote_interval: 30, extraction_temperature: 0.2 })
    const interval = async (name: string): Promise<unknown> => (await api('/api/jobs')).jobs.find((j: Json) => j.name === name).interval_minutes
    t.equal(await interval('promote'), 30, 'the promote job runs on the new interval')
    t.equal(await interval('entity_linking'), 60, 'the graph store\'s own schedule while the setting is at its default')
    await api('/api/memory/settings', { method: 'POST', body: { job_consolidate_interval: 5, job_entity_linking_interval: 10 } })
    t.same([await interval('consolidate'), await interval('entity_linking')], [5, 10], 'consolidate and entity_linking too')

    const rec = await call('getRecallSettings', '/api/memory/recall-settings')
    t.same(RECALL_SETTINGS.filter(k => !(k in rec)), [], 'every key the panel reads')
    t.match(await call('updateRecallSettings', '/api/memory/recall-settings', { method: 'POST', body: rec }), { success: true })
    t.match(await call('updateRecallSettings', '/api/memory/recall-settings', { method: 'POST', body: { ...rec, recall_entity_graph_depth: 2 } }), { success: true, updated: Array })
    t.match(await api('/api/memory/recall-settings'), { recall_entity_graph_depth: 2 })

    // Anything else is still refused, with the same code on both, naming the allowed keys.
    for (const path of ['/api/memory/settings', '/api/memory/recall-settings']) {
      const err = await api(path, { method: 'POST', body: { nope: 1 } }).catch((e: ApiError) => e) as ApiError
      t.equal(err.status, 400)
      t.match(err.details, { code: 'AGENT_ERR_MEMORY_BAD_REQUEST', error: /Unknown setting\(s\): nope\. Allowed keys: / }, path)
    }
    // The names agentd used before: still accepted (deprecated).
    t.match(await api('/api/memory/settings', { method: 'POST', body: { min_fact_confidence: 0.35 } }), { updated: ['fact_confidence_threshold'] })
    t.equal((await api('/api/memory/settings')).fact_confidence_threshold, 0.35)
  })

  t.test('every function of the client was called', async t => {
    t.equal(covered.size, 42, [...covered].sort().join(', '))
  })

  t.test('JSON nested thousands of levels deep, to every POST route: a 4xx, never a 500', async t => {
    const doc = await api('/docs/json')
    const posts = Object.entries(doc.paths as Record<string, Record<string, unknown>>).filter(([, ops]) => 'post' in ops).map(([p]) => p)
    t.ok(posts.length > 25, `${posts.length} POST routes`)
    const deep = '['.repeat(5000) + ']'.repeat(5000)
    const nearLimit = '['.repeat(250) + ']'.repeat(250)
    for (const p of posts) {
      // Path parameters get a value of the right shape.
      const url = p.replace(/\{[^}]+\}/g, m => /id\}$/.test(m) ? '00000000-0000-4000-8000-000000000000' : 'x')
      if (url === '/api/plugins/reload') continue // processed: a reload (tested in test/kernel)
      for (const body of [deep, nearLimit]) {
        // The Accept the MCP transport requires, so /mcp reads the body too.
        const res = await fetch(s.url + url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body })
        await res.arrayBuffer()
        t.ok(res.status < 500, `${url} (${body.length / 2} levels): ${res.status}`)
        // The kernel's parser refuses it (400); /mcp parses its own and answers JSON-RPC's 400.
        if (body === deep) t.equal(res.status, 400, `${url}: too deep`)
      }
    }
  })

  t.test('an upload is read, then answered: 415 on a route, 404 on an unknown path, the connection kept', async t => {
    const form = new FormData()
    form.append('file', new Blob([Buffer.alloc(512 * 1024, 97)]), 'notes.txt')
    for (const [path, status] of [['/api/memory/consolidate', 415], ['/api/upload', 404]] as const) {
      const res = await fetch(s.url + path, { method: 'POST', body: form })
      t.equal(res.status, status, path)
      t.not(res.headers.get('connection'), 'close', `${path}: keep-alive`)
      t.type(((await res.json()) as { error?: unknown }).error, 'string')
    }
  })
})
