// Consolidation end to end on a real server, on PGlite and on the real PostgreSQL:
// POST /api/memory/consolidate runs the jobs (no scheduler), supersession of employer and
// city without losing history, restatements and other people untouched, a low-confidence
// contradiction flagged, junk never stored, idempotence, strategies from tool runs,
// promotion to _global visible in lists and recall, the settings endpoints, and the LLM
// extractor through the real provider plugin against the fake upstream (valid, malformed).
import t from 'tap'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { sql } from 'kysely'
import { startKernel, type Started } from '../../test/helpers/kernel.ts'
import { repoPlugin } from '../../test/helpers/workspace.ts'
import { startFakeOpenAI } from '../../test/fakes/openai-upstream.ts'
import { memoryPlugins, postJson } from '../../test/memory/memory-kernel.ts'
import { PG_URI, uniqueSchema } from '../../test/memory/sql-targets.ts'
import { openSql } from '@agentd/sdk/kits/sql'
import type { NewToolInvocation } from '@agentd/sdk/contracts/memory-stores'

/** The two writes the test makes in process (parts of the memory plugin's service). */
interface Writes {
  episodic: { addTurn: (t: { conversation_id: string, role: string, content: string, channel?: string }) => Promise<unknown> }
  procedural: { recordToolInvocation: (t: Omit<NewToolInvocation, 'channel'> & { channel?: string }) => Promise<unknown> }
}

type Body = any // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON answers

const BACKENDS = [
  { name: 'pglite', sql: () => ({ backend: 'pglite', pglite_dir: 'memory' }) },
  { name: 'postgres', sql: (schema: string) => ({ backend: 'postgres', postgres_uri: PG_URI, schema }) },
]

for (const backend of BACKENDS) {
  t.test(`consolidation on ${backend.name}`, async t => {
    const schema = uniqueSchema()
    if (backend.name === 'postgres') {
      t.teardown(async () => {
        const h = await openSql({ backend: 'postgres', uri: PG_URI, schema: 'public', poolSize: 1, connectTimeoutMs: 3000 }, { warn: () => {} })
        await sql.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).execute(h.db).catch(() => {})
        await h.close()
      })
    }
    const fake = await startFakeOpenAI(t)
    const s: Started = await startKernel(t, {
      plugins: [
        { name: 'openai', module: repoPlugin('provider-openai-compatible'), options: { base_url: fake.url, max_retries: 0 } },
        // The model-resolution service the LLM extractor asks (the offline one needs none).
        { name: 'providers-api', module: repoPlugin('providers-api') },
        ...memoryPlugins({ sql: backend.sql(schema) }),
      ],
      env: { OPENAI_API_KEY: 'test-key', DEFAULT_MODEL: 'local-chat-model' },
      config: { models: { defaults: { extraction: 'openai/gpt-4o-mini' } } },
    })
    const svc = (): Writes => s.kernel.current?.app.registry.memoryServices.first() as unknown as Writes
    const say = async (conversation: string, channel: string, ...turns: Array<[string, string]>): Promise<void> => {
      for (const [role, content] of turns) await svc().episodic.addTurn({ conversation_id: conversation, role, content, channel })
    }
    const run = async (...jobs: string[]): Promise<Body> => {
      // No jobs named: a POST without a body (the default list).
      const r = jobs.length === 0
        ? await s.get('/api/memory/consolidate', { method: 'POST' }).then(async res => ({ status: res.status, body: await res.json() as Body }))
        : await postJson(s, '/api/memory/consolidate', { jobs })
      t.equal(r.status, 200, JSON.stringify(r.body).slice(0, 300))
      return r.body
    }
    const facts = async (q: string): Promise<Body[]> => (await s.json(`/api/memory/facts?limit=100&${q}`)).body.facts
    t.equal((await postJson(s, '/api/memory/settings', { extraction_mode: 'offline' })).status, 200)

    t.test('employer and city changes supersede the old facts, which stay listable as past', async t => {
      await say('c1', 'sup', ['user', 'Hi! I work at Acme.'], ['assistant', 'Nice to meet you!'], ['user', 'I live in Munich.'], ['user', 'My sister Anna lives in Paris.'])
      const first = await run('consolidate')
      t.match(first, { success: true, results: { consolidate: { conversations: 1, extractor: { offline: 1, llm: 0 }, mode: 'offline' } } })
      t.equal(first.results.consolidate.facts_created, 4)
      await say('c2', 'sup', ['user', 'Big news: I joined Globex last week.'], ['user', 'I moved to Berlin.'], ['user', 'My sister Anna lives in Paris.'])
      const second = (await run('consolidate')).results.consolidate
      t.equal(second.facts_superseded, 2, 'employer and city')
      t.equal(second.facts_existing, 2, 'Anna, and Anna in Paris, again: restatements, not contradictions')
      const now = (await facts('channel=sup')).map(f => f.claim).sort()
      t.same(now, ['Anna lives in Paris.', "The user's sister is Anna.", 'The user lives in Berlin.', 'The user works at Globex.'].sort())
      const all = await facts('channel=sup&include_superseded=true')
      const acme = all.find(f => f.claim === 'The user works at Acme.')
      const globex = all.find(f => f.claim === 'The user works at Globex.')
      t.ok(acme.superseded_at)
      t.equal(acme.temporal_context, 'past')
      t.equal(acme.superseded_by_id, globex.id)
      t.equal(globex.supersedes_id, acme.id)
      // Both facts' histories say consolidation changed them.
      const acmeHistory = (await (await s.get(`/api/memory/facts/${String(acme.id)}/history`)).json() as { history: Array<{ action: string, actor: string }> }).history
      t.same(acmeHistory.map(h => [h.action, h.actor]), [['fact.create', 'consolidation'], ['fact.superseded', 'consolidation']], 'created by consolidation, then superseded by it')
      const globexHistory = (await (await s.get(`/api/memory/facts/${String(globex.id)}/history`)).json() as { history: Array<{ action: string, actor: string }> }).history
      t.same(globexHistory.map(h => [h.action, h.actor]), [['fact.create', 'consolidation']])
      const paris = all.find(f => f.claim === 'Anna lives in Paris.')
      t.equal(paris.superseded_at, null, 'Anna\'s city is about another person: untouched by the user\'s move')
      t.equal(paris.conversation_count, 2)
    })

    t.test('two people with the same attribute do not touch each other', async t => {
      await say('c3', 'two', ['user', 'My friend Jake works at Amazon.'], ['user', 'My brother Tom works at Microsoft.'], ['user', 'I work at Stripe.'])
      await run('consolidate')
      const claims = (await facts('channel=two&include_superseded=true')).filter(f => f.attribute === 'works_at')
      t.same(claims.map(f => f.claim).sort(), ['Jake works at Amazon.', 'The user works at Stripe.', 'Tom works at Microsoft.'])
      t.ok(claims.every(f => f.superseded_at === null))
    })

    t.test('a hedged contradiction is flagged for review; the current fact stays', async t => {
      await say('c4', 'sup', ['user', 'I think I live in Rome now.'])
      t.equal((await run('consolidate')).results.consolidate.facts_flagged, 1)
      const flagged = await facts('channel=sup&flagged_for_review=true')
      t.same(flagged.map(f => f.claim), ['The user lives in Rome.'])
      t.ok((await facts('channel=sup&flagged_for_review=false')).some(f => f.claim === 'The user lives in Berlin.'), 'Berlin is still current')
    })

    t.test('junk is never stored: small talk, the agent\'s words, a pasted recall block', async t => {
      await say('c5', 'junk', ['user', 'hello!'], ['assistant', 'You work at Initech and you live in Oslo.'], ['user', 'You work at Initech and you live in Oslo.'],
        ['user', 'Relevant memory (from earlier conversations):\nKnown facts:\n- The user works at Initech.'], ['user', 'thanks, bye'])
      const m = (await run('consolidate')).results.consolidate
      t.equal(m.facts_created, 0)
      t.equal(m.turns_skipped, 4)
      t.same(await facts('channel=junk'), [])
    })

    t.test('a model that repeats the user does not make the user\'s statement an echo: its facts are extracted', async t => {
      const dana = 'Hi! My name is Dana. I work at Siemens in Munich.'
      await say('c5b', 'echo', ['user', dana], ['assistant', `You said: ${dana}`])
      const m = (await run('consolidate')).results.consolidate
      t.equal(m.turns_skipped, 0)
      const claims = (await facts('channel=echo')).map(f => f.claim).sort()
      t.same(claims, ["The user's name is Dana.", 'The user works at Siemens.'].sort())
    })

    t.test('who spoke: messages written with a name and a date keep both; their first-person facts name the speaker', async t => {
      const w = await postJson(s, '/api/memory/turns', {
        channel: 'speakers', conversation_id: 'c5c',
        messages: [
          { role: 'user', name: 'Caroline', content: 'I work at Acme Labs.', timestamp: '2023-05-08T13:56:00Z' },
          { role: 'user', name: 'Melanie', content: 'I live in Denver.', timestamp: '2023-05-08T13:57:00Z' },
          { role: 'user', content: 'I live in Oslo.' },
        ],
      })
      t.equal(w.status, 201)
      t.same(w.body.turns.map((x: Body) => [x.metadata.name, x.timestamp.slice(0, 10)]), [['Caroline', '2023-05-08'], ['Melanie', '2023-05-08'], [undefined, new Date().toISOString().slice(0, 10)]])
      await run('consolidate')
      const claims = (await facts('channel=speakers')).map(f => f.claim).sort()
      t.same(claims, ['Caroline works at Acme Labs.', 'Melanie lives in Denver.', 'The user lives in Oslo.'].sort())
    })

    t.test('recall: current facts first; superseded ones only when the question is about the past', async t => {
      const now = (await postJson(s, '/api/memory/recall', { query: 'Where does the user work?', channel: 'sup' })).body
      const claims = now.facts.map((f: Body) => f.claim)
      t.ok(claims.includes('The user works at Globex.'))
      t.notOk(claims.includes('The user works at Acme.'))
      const past = (await postJson(s, '/api/memory/recall', { query: 'Where did the user work before?', channel: 'sup' })).body.facts.map((f: Body) => f.claim)
      t.ok(past.includes('The user works at Acme.'), 'asked about the past')
      t.ok(past.indexOf('The user works at Globex.') < past.indexOf('The user works at Acme.'), 'current first')
      t.ok(now.entities.length > 0 || (await postJson(s, '/api/memory/recall', { query: 'Anna', channel: 'sup' })).body.entities.some((e: Body) => e.name === 'Anna'), 'entities are recalled')
    })

    t.test('idempotence: reset the marks, consolidate everything again, counts unchanged', async t => {
      const before = (await s.json('/api/memory/stats')).body
      const reset = await postJson(s, '/api/memory/reset', {})
      t.ok(reset.body.conversations_reset >= 7)
      const m = (await run('consolidate')).results.consolidate
      t.equal(m.conversations, 7)
      t.equal(m.facts_created, 0)
      t.equal(m.entities_created, 0)
      t.equal(m.facts_superseded, 0, 'a re-read old statement does not supersede the newer one')
      t.same((await s.json('/api/memory/stats')).body.totals, before.totals)
      t.same((await facts('channel=sup')).map(f => f.claim).sort(), ['Anna lives in Paris.', "The user's sister is Anna.", 'The user lives in Berlin.', 'The user lives in Rome.', 'The user works at Globex.'].sort())
    })

    t.test('patterns: a successful tool run becomes a strategy; the same sequence again updates it', async t => {
      const tool = async (conversation: string, name: string, isError = false): Promise<void> => {
        await svc().procedural.recordToolInvocation({ conversation_id: conversation, tool: name, arguments: {}, result: 'ok', is_error: isError, duration_ms: 5, channel: 'tools' })
      }
      await say('p1', 'tools', ['user', 'What is the weather in Oslo tomorrow?'])
      await tool('p1', 'search'); await tool('p1', 'search'); await tool('p1', 'fetch_page')
      const m1 = (await run('patterns')).results.patterns
      t.match(m1, { runs: 1, successful_runs: 1, strategies_created: 1 })
      await say('p2', 'tools', ['user', 'Weather forecast for Bergen please'])
      await tool('p2', 'search'); await tool('p2', 'fetch_page')
      await say('p3', 'tools', ['user', 'And the weather in Tromsø?'])
      await tool('p3', 'search'); await tool('p3', 'fetch_page', true)
      const m2 = (await run('patterns')).results.patterns
      t.equal(m2.strategies_created, 0)
      t.equal(m2.strategies_updated, 2)
      const again = (await run('patterns')).results.patterns
      t.equal(again.strategies_updated, 0, 'a run is counted once')
      const list = (await s.json('/api/memory/strategies?channel=tools')).body
      t.equal(list.total, 1)
      t.match(list.strategies[0], { tool_sequence: ['search', 'fetch_page'], success_count: 2, failure_count: 1 })
      t.match(list.strategies[0].context_pattern, /weather/)
    })

    t.test('settings: every key with value and default; unknown keys and wrong types 400 with nothing changed; persisted and live', async t => {
      // Flat (key -> value), defaults under _meta: the original client's shape.
      const got = (await s.json('/api/memory/settings')).body
      t.match(got, { extraction_mode: 'offline', consolidation_batch_size: 10, promotion_min_confidence: 0.85 })
      t.match(got._meta.defaults, { extraction_mode: 'auto', consolidation_batch_size: 10, promotion_min_confidence: 0.85 })
      t.match(got._meta.defaults.extraction_system_prompt, /third person/)
      t.equal(got.default_extraction_prompt, got._meta.defaults.extraction_system_prompt, 'the default prompt, read-only')
      const unknown = await postJson(s, '/api/memory/settings', { extraction_mode: 'llm', nope: 1 })
      t.equal(unknown.status, 400)
      t.match(unknown.body.error, /Unknown setting\(s\): nope\. Allowed keys: .*extraction_mode/)
      const wrong = await postJson(s, '/api/memory/settings', { consolidation_batch_size: 'ten', relevance_threshold: 3 })
      t.equal(wrong.status, 400)
      t.same(wrong.body.details.map((d: Body) => d.path).sort(), ['.consolidation_batch_size', '.relevance_threshold'])
      t.equal((await postJson(s, '/api/memory/settings', [1])).status, 400)
      t.equal((await s.json('/api/memory/settings')).body.extraction_mode, 'offline', 'nothing changed')
      const ok = await postJson(s, '/api/memory/settings', { consolidation_batch_size: 1 })
      t.same(ok.body, { success: true, updated: ['consolidation_batch_size'] })
      t.same(JSON.parse(readFileSync(path.join(s.ws.dataDir, 'memory_settings.json'), 'utf8')), { extraction_mode: 'offline', consolidation_batch_size: 1 })
      // The file is shared with the recall settings: each endpoint rewrites only its own keys.
      t.equal((await postJson(s, '/api/memory/recall-settings', { recall_hybrid_rrf_k: 30 })).status, 200)
      t.same(JSON.parse(readFileSync(path.join(s.ws.dataDir, 'memory_settings.json'), 'utf8')), { extraction_mode: 'offline', consolidation_batch_size: 1, recall_hybrid_rrf_k: 30 })
      const mixed = await postJson(s, '/api/memory/settings', { recall_hybrid_rrf_k: 10 })
      t.match(mixed.body.error, /POST \/api\/memory\/recall-settings/, 'a recall key sent here is pointed to its endpoint')
      await say('b1', 'batch', ['user', 'I live in Lima.'])
      await say('b2', 'batch', ['user', 'I live in Quito.'])
      t.equal((await run('consolidate')).results.consolidate.conversations, 1, 'the new batch size is used at once')
      await postJson(s, '/api/memory/settings', { consolidation_batch_size: 10 })
      t.ok((await run('consolidate')).results.consolidate.conversations >= 1, 'the rest on the next run')
      t.equal((await postJson(s, '/api/memory/consolidate', { jobs: 'consolidate' })).status, 400, 'jobs must be a list')
      const unknownJob = await postJson(s, '/api/memory/consolidate', { jobs: ['consolidate', 'nope'] })
      t.equal(unknownJob.status, 404, 'an unknown job is a 404 (DECISIONS.md), as on /api/jobs')
      t.match(unknownJob.body.error, /Unknown job\(s\): nope\. Memory jobs: consolidate, patterns, promote .*job-nope in plugins\.json/)
    })

    t.test('the LLM extractor: models.defaults.extraction answers with valid JSON; malformed twice falls back, reported', async t => {
      await run('consolidate') // nothing else left for the model to read
      await postJson(s, '/api/memory/settings', { extraction_mode: 'llm' })
      t.teardown(async () => { await postJson(s, '/api/memory/settings', { extraction_mode: 'offline' }) })
      fake.enqueue({
        text: JSON.stringify({
          entities: [{ name: 'Nadia', type: 'Person', aliases: [], description: 'the user\'s colleague' }],
          facts: [{ subject: 'Nadia', predicate: 'works_at', object: 'Hooli', claim: 'Nadia works at Hooli.', confidence: 0.9, temporal_context: 'current', turn: 0, entities: ['Nadia'] }],
          relationships: [],
        }),
      })
      await say('l1', 'llm', ['user', 'My colleague Nadia works at Hooli.'])
      const m = (await run('consolidate')).results.consolidate
      t.match(m, { extractor: { llm: 1, offline: 0 }, model: 'openai/gpt-4o-mini', fallbacks: [] })
      t.same((await facts('channel=llm')).map(f => f.claim), ['Nadia works at Hooli.'], 'what the model said, not what the offline extractor would have')
      t.equal(fake.completions.at(-1)?.body.model, 'gpt-4o-mini', 'models.defaults.extraction, not the chat default')
      // Linking: a later conversation names Nadia with another name; it merges into the stored Nadia, in her history.
      const nadia = (await s.json('/api/memory/entities?channel=llm&search=Nadia')).body.entities[0]
      fake.enqueue({ text: JSON.stringify({ entities: [{ name: 'nadia', type: 'Person', aliases: ['Nadia Petrova'] }], facts: [], relationships: [] }) })
      await say('l0', 'llm', ['user', 'Nadia Petrova, my colleague, says hi.'])
      t.match((await run('consolidate')).results.consolidate, { entities_created: 0, entities_linked: 1 })
      const nh = (await s.json(`/api/memory/entities/${String(nadia.id)}/history`)).body.history as Body[]
      t.same(nh.map(h => [h.action, h.actor]), [['entity.create', 'consolidation'], ['entity.merge', 'merge']], 'created by consolidation, then another name merged in')
      t.match(nh[1].details, { name: 'Nadia', merged_names: ['Nadia Petrova'], by: 'consolidation', conversation_id: 'l0' })
      fake.enqueue({ text: JSON.stringify({ entities: [{ name: 'Nadia Petrova', type: 'Person', aliases: [] }], facts: [], relationships: [] }) })
      await say('l0b', 'llm', ['user', 'Nadia Petrova again.'])
      t.match((await run('consolidate')).results.consolidate, { entities_linked: 1 })
      t.equal((await s.json(`/api/memory/entities/${String(nadia.id)}/history`)).body.history.length, 2, 'linked by a name it has already: nothing merged, no entry')
      fake.enqueue({ text: 'not json' }, { text: '{"facts": [' })
      await say('l2', 'llm', ['user', 'I live in Cusco.'])
      const m2 = (await run('consolidate')).results.consolidate
      t.match(m2, { extractor: { llm: 0, offline: 1 } })
      t.match(m2.fallbacks[0], { conversation_id: 'l2', reason: /unusable output twice/ })
      t.ok((await facts('channel=llm')).some(f => f.claim === 'The user lives in Cusco.'), 'the offline extractor\'s fact was stored')
    })

    t.test('promotion: over the thresholds to _global, visible in lists and in recall from any channel', async t => {
      await say('q1', 'pro', ['user', "I'm allergic to peanuts."])
      await say('q2', 'pro', ['user', "I'm allergic to peanuts, remember that."])
      await run('consolidate')
      const f = (await facts('channel=pro')).find(x => x.claim === 'The user is allergic to peanuts.')
      t.equal(f.conversation_count, 2)
      t.equal((await run('promote')).results.promote.facts_promoted, 0, 'not recalled often enough yet')
      for (let i = 0; i < 5; i++) await postJson(s, '/api/memory/recall', { query: 'is the user allergic to peanuts', channel: 'pro' })
      await postJson(s, '/api/memory/settings', { promotion_min_entity_salience: 0.6 })
      const p = (await run('promote')).results.promote
      t.ok(p.facts_promoted >= 1)
      t.ok(p.entities_promoted >= 1, 'the User entity, seen in two conversations, is over the lowered salience bar')
      t.ok((await facts('channel=_global')).some(x => x.claim === 'The user is allergic to peanuts.'), 'listed under _global')
      t.ok((await facts('channel=_all')).some(x => x.claim === 'The user is allergic to peanuts.'), 'listed under _all')
      const elsewhere = (await postJson(s, '/api/memory/recall', { query: 'allergic to peanuts', channel: 'another' })).body
      t.ok(elsewhere.facts.some((x: Body) => x.claim === 'The user is allergic to peanuts.'), 'recalled from any channel')
      const users = (await s.json('/api/memory/entities?channel=_global&search=User')).body.entities
      t.equal(users.length, 1, 'the promoted users merged into one')
      const fh = (await s.json(`/api/memory/facts/${String(f.id)}/history`)).body.history as Body[]
      t.match(fh.at(-1), { action: 'fact.promote', actor: 'promotion', details: { to: '_global', into: f.id, merged: false } }, 'the promotion in the fact\'s history')
      // The first user moved to _global keeps its id; every other one merged into it, which its history shows.
      const uh = (await s.json(`/api/memory/entities/${String(users[0].id)}/history`)).body.history as Body[]
      t.match(uh.filter(h => h.actor === 'promotion').map(h => h.action), ['entity.promote'])
      const merges = uh.filter(h => h.action === 'entity.merge')
      t.ok(merges.length >= 1, 'the users merged into it are in its history')
      for (const m of merges) t.match(m, { actor: 'merge', channel: '_global', details: { name: 'User', by: 'promotion', merged_from: { name: 'User', type: 'Person' } } })
      for (const m of merges) t.match((await s.json(`/api/memory/entities/${String(m.details.merged_from.id)}/history`)).body.history.at(-1), { action: 'entity.promote', actor: 'promotion', details: { into: users[0].id, merged: true } }, 'and each merged one says where it went')
      // A later conversation in the channel links to the promoted user instead of creating another.
      await say('q3', 'pro', ['user', 'I work at Initech.'])
      await run('consolidate')
      t.equal((await s.json('/api/memory/entities?channel=pro&search=User')).body.total, 0)
      t.equal((await facts('channel=pro')).find(x => x.claim === 'The user works at Initech.').subject_id, users[0].id)
    })

    t.test('the three jobs are registered under registry.jobs; the default run does all three', async t => {
      t.same(s.kernel.current?.app.registry.jobs.values().map(j => j.name).filter(n => ['consolidate', 'patterns', 'promote'].includes(n)).sort(), ['consolidate', 'patterns', 'promote'], 'beside the maintenance jobs')
      const all = await run()
      t.same(Object.keys(all.results), ['consolidate', 'patterns', 'promote'])
      t.equal(all.success, true)
      t.type(all.duration_ms, 'number')
    })
  })
}
