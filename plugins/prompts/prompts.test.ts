import t, { type Test } from 'tap'
import { readFileSync, writeFileSync, existsSync } from 'node:fs'
import path from 'node:path'
import { startKernel } from '../../test/helpers/kernel.ts'
import { until } from '../../test/helpers/poll.ts'
import { repoPlugin, Workspace } from '../../test/helpers/workspace.ts'
import { composePrompt, TOOLS_HEADING } from './compose.ts'
import { parsePromptsFile, SHIPPED_DEFAULT } from './store.ts'

const FILE = `# my prompts
global_prompt:
  content: GLOBAL
  enabled: true
profiles:
  - id: p1
    name: P1
    description: first
    is_default: true
    sections:
      - { id: late, name: Late, type: format, content: SECTION-30, enabled: true, order: 30 }
      - { id: off, name: Off, type: custom, content: DISABLED, enabled: false, order: 5 }
      - { id: early, name: Early, type: persona, content: SECTION-10, enabled: true, order: 10 }
  - id: p2
    name: P2
    sections:
      - { id: only, name: Only, type: task, content: P2-ONLY, enabled: true, order: 1 }
`

const plugins = [
  { name: 'tools-builtin', module: repoPlugin('tools-builtin'), options: { tools: ['calculate'] } },
  { name: 'prompts', module: repoPlugin('prompts') },
]

async function start (t: Test, text = FILE, logLevel?: string): Promise<Awaited<ReturnType<typeof startKernel>>> {
  const ws = new Workspace()
  t.teardown(() => { ws.remove() })
  ws.write('data/system_prompts.yaml', text)
  return await startKernel(t, { ws, plugins, ...(logLevel === undefined ? {} : { logLevel }) })
}


t.test('composition order: global, tools, enabled sections by order, additional context, memory context', async t => {
  const file = parsePromptsFile(FILE, 'x.yaml')
  const r = composePrompt(file, { tools_prompt: '- calc: adds', additional_context: 'EXTRA', memory_context: 'MEMORY' })
  t.equal(r.system_prompt, ['GLOBAL', `${TOOLS_HEADING}\n- calc: adds`, 'SECTION-10', 'SECTION-30', 'EXTRA', 'MEMORY'].join('\n\n'))
  t.equal(r.profile_id, 'p1', 'no profile id means the default profile')
  t.equal(composePrompt(file, { profile_id: 'default' }).profile_id, 'p1', '"default" names the default profile')
  t.equal(composePrompt(file, { system_override: 'ONLY THIS', memory_context: 'MEMORY' }).system_prompt, 'ONLY THIS', 'system_override replaces all')
  const off = parsePromptsFile(FILE.replace('enabled: true\nprofiles', 'enabled: false\nprofiles'), 'x.yaml')
  t.notMatch(composePrompt(off, {}).system_prompt, /GLOBAL/, 'a disabled global prompt is left out')
})

t.test('the compose endpoint includes the tool sources\' tools prompt in order', async t => {
  const s = await start(t)
  const { status, body } = await s.json('/api/prompts/compose')
  t.equal(status, 200)
  t.equal(body.profile_id, 'p1')
  const p = body.system_prompt as string
  const at = (x: string): number => p.indexOf(x)
  t.ok(at('GLOBAL') === 0 && at('GLOBAL') < at(TOOLS_HEADING) && at(TOOLS_HEADING) < at('- calculate:') && at('- calculate:') < at('SECTION-10') && at('SECTION-10') < at('SECTION-30'), p)
  t.notMatch(p, /DISABLED|P2-ONLY/)
  const p2 = await s.json('/api/prompts/compose?profile_id=p2')
  t.match(p2.body.system_prompt, /P2-ONLY$/)
})

t.test('profiles, one profile, sections and global prompt read endpoints', async t => {
  const s = await start(t)
  const list = await s.json('/api/prompts/profiles')
  t.same(list.body.profiles, [
    { id: 'p1', name: 'P1', description: 'first', is_default: true, sections_count: 3, enabled_sections: 2 },
    { id: 'p2', name: 'P2', description: '', is_default: false, sections_count: 1, enabled_sections: 1 },
  ])
  const one = await s.json('/api/prompts/profiles/p2')
  t.equal(one.status, 200)
  t.equal(one.body.profile.sections[0].content, 'P2-ONLY')
  t.match(one.body.composed_prompt, /^GLOBAL\n\n[\s\S]*P2-ONLY$/)
  const sections = await s.json('/api/prompts/sections')
  t.same(sections.body.sections.map((x: { profile_id: string, id: string }) => `${x.profile_id}/${x.id}`), ['p1/off', 'p1/early', 'p1/late', 'p2/only'])
  t.same((await s.json('/api/prompts/global')).body, { global_prompt: { content: 'GLOBAL', enabled: true } })
})

t.test('an unknown profile is a 404 that lists the profiles', async t => {
  const s = await start(t)
  for (const url of ['/api/prompts/profiles/nope', '/api/prompts/compose?profile_id=nope']) {
    const r = await s.json(url)
    t.equal(r.status, 404, url)
    t.equal(r.body.code, 'AGENT_ERR_PROMPTS_UNKNOWN_PROFILE')
    t.match(r.body.error, /"nope".*p1, p2/)
  }
})

t.test('editing the file reloads profiles live; a bad edit keeps the last good version', async t => {
  const s = await start(t, FILE, 'error')
  const file = path.join(s.ws.dataDir, 'system_prompts.yaml')
  writeFileSync(file, FILE.replace('SECTION-10', 'EDITED-10'))
  await until('the edit to show', async () => /EDITED-10/.test((await s.json('/api/prompts/compose')).body.system_prompt))
  t.equal(s.kernel.api.generation(), 1, 'edit picked up without a rebuild of the generation')
  writeFileSync(file, FILE.replace('type: format', 'type: nonsense'))
  // The watcher has read the bad file once the store reports why it refused it.
  await until('the bad edit to be read and refused', () => s.logText().includes('prompts file not reloaded'))
  t.match(s.logText(), /prompts file not reloaded: [^\n]*type/, 'the refusal names the bad field')
  t.match((await s.json('/api/prompts/compose')).body.system_prompt, /EDITED-10/, 'invalid file ignored, last good version serves')
  writeFileSync(file, FILE.replace('SECTION-10', 'FIXED-10'))
  await until('the fix to show', async () => /FIXED-10/.test((await s.json('/api/prompts/compose')).body.system_prompt))
})

t.test('updating the global prompt persists it to the file, keeping comments', async t => {
  const s = await start(t)
  const r = await s.post('/api/prompts/global/update', { content: 'NEW GLOBAL', enabled: false })
  t.equal(r.status, 200)
  t.same(await r.json(), { global_prompt: { content: 'NEW GLOBAL', enabled: false } })
  const text = readFileSync(path.join(s.ws.dataDir, 'system_prompts.yaml'), 'utf8')
  t.match(text, /^# my prompts/, 'the comment is kept')
  t.same(parsePromptsFile(text, 'x').global_prompt, { content: 'NEW GLOBAL', enabled: false })
  t.same((await s.json('/api/prompts/global')).body.global_prompt, { content: 'NEW GLOBAL', enabled: false })
  t.notMatch((await s.json('/api/prompts/compose')).body.system_prompt, /GLOBAL/, 'disabled global prompt left out')
  const partial = await s.post('/api/prompts/global/update', { enabled: true })
  t.same((await partial.json() as { global_prompt: unknown }).global_prompt, { content: 'NEW GLOBAL', enabled: true }, 'only given fields change')
})

t.test('global update rejects bad input with 400 and writes nothing', async t => {
  const s = await start(t)
  const file = path.join(s.ws.dataDir, 'system_prompts.yaml')
  for (const body of [{}, { content: 5 }, { enabled: 'yes' }, { content: 'x', extra: 1 }]) {
    const r = await s.post('/api/prompts/global/update', body)
    t.equal(r.status, 400, JSON.stringify(body))
    t.match(await r.json(), { code: /^AGENT_ERR_/, statusCode: 400 })
  }
  t.equal(readFileSync(file, 'utf8'), FILE, 'file untouched')
})

t.test('a missing file is seeded from the shipped default', async t => {
  const ws = new Workspace()
  t.teardown(() => { ws.remove() })
  const s = await startKernel(t, { ws, plugins })
  const file = path.join(ws.dataDir, 'system_prompts.yaml')
  t.ok(existsSync(file))
  t.equal(readFileSync(file, 'utf8'), readFileSync(SHIPPED_DEFAULT, 'utf8'))
  const list = await s.json('/api/prompts/profiles')
  t.ok(list.body.profiles.some((p: { id: string, is_default: boolean }) => p.id === 'default' && p.is_default))
})

t.test('a duplicate profile id or two defaults are refused with the path', async t => {
  t.throws(() => parsePromptsFile(FILE.replace('id: p2', 'id: p1'), 'f.yaml'), /profiles\.1\.id: "p1" is used by another profile/)
  t.throws(() => parsePromptsFile(FILE.replace('name: P2', 'name: P2\n    is_default: true'), 'f.yaml'), /only one profile may have is_default/)
  t.throws(() => parsePromptsFile('global_prompt: [', 'f.yaml'), /not valid YAML/)
})

t.test('GET /api/prompts/mcp-tools is served without the MCP plugin: the tool sources\' prompt and count', async t => {
  const s = await start(t)
  const { status, body } = await s.json('/api/prompts/mcp-tools')
  t.equal(status, 200)
  t.match(body.mcp_tools_prompt, /^- calculate: /)
  t.equal(body.tools_count, 1, 'the one builtin tool enabled in this setup')
  const composed = (await s.json('/api/prompts/compose')).body.system_prompt as string
  t.ok(composed.includes(`${TOOLS_HEADING}\n${body.mcp_tools_prompt as string}`), 'the same text the composition puts under the tools heading')
})

t.test('GET /api/prompts/mcp-tools with no tool source is empty, 0', async t => {
  const ws = new Workspace()
  t.teardown(() => { ws.remove() })
  ws.write('data/system_prompts.yaml', FILE)
  const s = await startKernel(t, { ws, plugins: [{ name: 'prompts', module: repoPlugin('prompts') }] })
  t.same((await s.json('/api/prompts/mcp-tools')).body, { mcp_tools_prompt: '', tools_count: 0 })
})

// Profile edits: create, update, delete. Each writes the file atomically (comments kept)
// and serves the change at once; a refused request leaves the file byte for byte as it was.
const sec = (id: string, order: number, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ id, name: id.toUpperCase(), type: 'task', content: `${id}-content`, enabled: true, order, ...extra })
const fileOf = (s: Awaited<ReturnType<typeof start>>): string => readFileSync(path.join(s.ws.dataDir, 'system_prompts.yaml'), 'utf8')
const del = async (s: Awaited<ReturnType<typeof start>>, id: string): Promise<{ status: number, body: any }> => await s.json(`/api/prompts/profiles/${id}`, { method: 'DELETE' }) // eslint-disable-line @typescript-eslint/no-explicit-any

t.test('create a profile: 201, persisted with comments kept, served at once', async t => {
  const s = await start(t)
  const r = await s.post('/api/prompts/profiles', { id: 'p3', name: 'P3', description: 'third', sections: [sec('b', 20), sec('a', 10, { enabled: false })] })
  t.equal(r.status, 201)
  const body = await r.json() as { profile: { id: string, sections: Array<{ id: string }> } }
  t.same(body.profile, { id: 'p3', name: 'P3', description: 'third', is_default: false, sections: [sec('b', 20), sec('a', 10, { enabled: false })] })
  const text = fileOf(s)
  t.match(text, /^# my prompts/, 'the comment is kept')
  t.same(parsePromptsFile(text, 'x').profiles.map(p => p.id), ['p1', 'p2', 'p3'], 'appended in the file')
  t.equal((await s.json('/api/prompts/compose?profile_id=p3')).body.system_prompt.endsWith('b-content'), true, 'composes at once, disabled section left out')
  t.equal((await s.json('/api/prompts/profiles')).body.profiles.find((p: { id: string }) => p.id === 'p1').is_default, true, 'the default did not move')
  const minimal = await s.post('/api/prompts/profiles', { id: 'p4', name: 'P4', is_default: true })
  t.equal(minimal.status, 201)
  t.same((await minimal.json() as { profile: unknown }).profile, { id: 'p4', name: 'P4', description: '', is_default: true, sections: [] })
  const list = (await s.json('/api/prompts/profiles')).body.profiles as Array<{ id: string, is_default: boolean }>
  t.same(list.filter(p => p.is_default).map(p => p.id), ['p4'], 'is_default moved to the new profile, the old flag cleared')
  t.same(parsePromptsFile(fileOf(s), 'x').profiles.filter(p => p.is_default).map(p => p.id), ['p4'], 'and so in the file')
})

t.test('create refuses a taken id (409) and bad fields (400), writing nothing', async t => {
  const s = await start(t)
  const taken = await s.post('/api/prompts/profiles', { id: 'p2', name: 'again' })
  t.equal(taken.status, 409)
  t.match(await taken.json(), { code: 'AGENT_ERR_PROMPTS_PROFILE_EXISTS', error: /"p2" already exists/ })
  const bad: Array<[string, unknown]> = [
    ['no body', {}],
    ['no name', { id: 'x' }],
    ['no id', { name: 'X' }],
    ['id with a space', { id: 'a b', name: 'X' }],
    ['empty name', { id: 'x', name: '' }],
    ['name a number', { id: 'x', name: 5 }],
    ['description not a string', { id: 'x', name: 'X', description: false }],
    ['is_default a string', { id: 'x', name: 'X', is_default: 'yes' }],
    ['sections not a list', { id: 'x', name: 'X', sections: {} }],
    ['unknown key', { id: 'x', name: 'X', colour: 'red' }],
    ['unknown section key', { id: 'x', name: 'X', sections: [{ ...sec('a', 1), extra: 1 }] }],
    ['section without content', { id: 'x', name: 'X', sections: [{ id: 'a', name: 'A', type: 'task', enabled: true, order: 1 }] }],
    ['section of an unknown type', { id: 'x', name: 'X', sections: [sec('a', 1, { type: 'poem' })] }],
    ['section order not an integer', { id: 'x', name: 'X', sections: [sec('a', 1.5)] }],
    ['section enabled a string', { id: 'x', name: 'X', sections: [sec('a', 1, { enabled: 'no' })] }],
    ['two sections with one id', { id: 'x', name: 'X', sections: [sec('a', 1), sec('a', 2)] }],
  ]
  for (const [why, body] of bad) {
    const r = await s.post('/api/prompts/profiles', body)
    t.equal(r.status, 400, why)
    t.match(await r.json(), { code: /^AGENT_ERR_/, statusCode: 400, error: /\S/ }, why)
  }
  t.equal(fileOf(s), FILE, 'file untouched')
  t.same((await s.json('/api/prompts/profiles')).body.profiles.map((p: { id: string }) => p.id), ['p1', 'p2'], 'nothing added')
})

t.test('update a profile: given fields change, sections replaced in the order sent, file rewritten', async t => {
  const s = await start(t)
  const r = await s.post('/api/prompts/profiles/p2/update', { name: 'Renamed', sections: [sec('z', 1), sec('only', 2, { content: 'EDITED', type: 'persona' }), sec('off', 3, { enabled: false })] })
  t.equal(r.status, 200)
  const { profile } = await r.json() as { profile: { name: string, description: string, sections: Array<{ id: string }> } }
  t.equal(profile.name, 'Renamed')
  t.equal(profile.description, '', 'description untouched')
  t.same(profile.sections.map(x => x.id), ['z', 'only', 'off'], 'the order sent')
  const composed = (await s.json('/api/prompts/compose?profile_id=p2')).body.system_prompt as string
  t.ok(composed.endsWith('\n\nz-content\n\nEDITED'), 'composed from the new sections at once, in order')
  t.notMatch(composed, /off-content|P2-ONLY/, 'the disabled section and the old content left out')
  const text = fileOf(s)
  t.match(text, /^# my prompts/)
  const p2 = parsePromptsFile(text, 'x').profiles[1]
  t.same(p2.sections.map(x => [x.id, x.content, x.enabled]), [['z', 'z-content', true], ['only', 'EDITED', true], ['off', 'off-content', false]], 'persisted')
  t.equal(parsePromptsFile(text, 'x').profiles[0].sections.length, 3, 'the other profile untouched')

  const desc = await s.post('/api/prompts/profiles/p2/update', { description: 'now described' })
  t.same((await desc.json() as { profile: { name: string, description: string } }).profile.name, 'Renamed', 'a partial update keeps the rest')
  const mk = await s.post('/api/prompts/profiles/p2/update', { is_default: true })
  t.equal(mk.status, 200)
  t.equal((await s.json('/api/prompts/compose')).body.profile_id, 'p2', 'the default moved')
  t.same(parsePromptsFile(fileOf(s), 'x').profiles.map(p => p.is_default), [false, true], 'one flag in the file')
  const none = await s.post('/api/prompts/profiles/p2/update', { sections: [] })
  t.same((await none.json() as { profile: { sections: unknown[] } }).profile.sections, [], 'every section removed')
})

t.test('update refuses an unknown profile (404) and bad fields (400), writing nothing', async t => {
  const s = await start(t)
  const missing = await s.post('/api/prompts/profiles/nope/update', { name: 'X' })
  t.equal(missing.status, 404)
  t.match(await missing.json(), { code: 'AGENT_ERR_PROMPTS_UNKNOWN_PROFILE', error: /"nope".*p1, p2/ })
  const bad: Array<[string, unknown]> = [
    ['empty update', {}],
    ['unknown key', { name: 'X', id: 'renamed' }],
    ['empty name', { name: '' }],
    ['name a number', { name: 1 }],
    ['description a list', { description: [] }],
    ['is_default a number', { is_default: 1 }],
    ['sections a string', { sections: 'none' }],
    ['section without an id', { sections: [{ name: 'A', type: 'task', content: '', enabled: true, order: 1 }] }],
    ['section id with a slash', { sections: [sec('a/b', 1)] }],
    ['section with an unknown key', { sections: [{ ...sec('a', 1), colour: 'red' }] }],
    ['section order a string', { sections: [sec('a', '1' as unknown as number)] }],
    ['two sections with one id', { sections: [sec('a', 1), sec('a', 2)] }],
    ['unsetting the default flag of the default profile', { is_default: false }],
  ]
  for (const [why, body] of bad) {
    const r = await s.post('/api/prompts/profiles/p1/update', body)
    t.equal(r.status, 400, why)
    t.match(await r.json(), { code: /^AGENT_ERR_/, statusCode: 400, error: /\S/ }, why)
  }
  t.equal(fileOf(s), FILE, 'file untouched')
  t.equal((await s.json('/api/prompts/compose?profile_id=p1')).body.system_prompt.includes('SECTION-10'), true, 'served as before')
})

t.test('delete a profile; not the default one, not the last one, not an unknown one', async t => {
  const s = await start(t)
  const dflt = await del(s, 'p1')
  t.equal(dflt.status, 400)
  t.match(dflt.body, { code: 'AGENT_ERR_PROMPTS_DEFAULT_PROFILE', error: /"p1" is the default profile/ })
  const missing = await del(s, 'nope')
  t.equal(missing.status, 404)
  t.equal(missing.body.code, 'AGENT_ERR_PROMPTS_UNKNOWN_PROFILE')
  t.equal(fileOf(s), FILE, 'file untouched by the refusals')
  const ok = await del(s, 'p2')
  t.equal(ok.status, 200)
  t.same(ok.body, { deleted: 'p2', message: 'Prompt profile "p2" deleted.' })
  t.equal((await s.json('/api/prompts/profiles/p2')).status, 404, 'gone at once')
  t.same(parsePromptsFile(fileOf(s), 'x').profiles.map(p => p.id), ['p1'], 'gone from the file')
  t.match(fileOf(s), /^# my prompts/)
  // p1 is now the only profile: without its flag it is still the default, and the last.
  await s.post('/api/prompts/profiles', { id: 'p5', name: 'P5', is_default: true })
  t.equal((await del(s, 'p1')).status, 200, 'no longer the default: deletable')
  const last = await del(s, 'p5')
  t.equal(last.status, 400)
  t.match(last.body.error, /"p5" is the only profile/)
  t.same(parsePromptsFile(fileOf(s), 'x').profiles.map(p => p.id), ['p5'])
})

t.test('concurrent edits are serialized: none is lost', async t => {
  const s = await start(t)
  const rs = await Promise.all([
    s.post('/api/prompts/profiles', { id: 'c1', name: 'C1' }),
    s.post('/api/prompts/profiles', { id: 'c2', name: 'C2' }),
    s.post('/api/prompts/profiles/p2/update', { description: 'edited' }),
    s.post('/api/prompts/global/update', { content: 'G2' }),
  ])
  t.same(rs.map(r => r.status), [201, 201, 200, 200])
  const file = parsePromptsFile(fileOf(s), 'x')
  t.same(file.profiles.map(p => p.id), ['p1', 'p2', 'c1', 'c2'])
  t.equal(file.profiles[1].description, 'edited')
  t.equal(file.global_prompt.content, 'G2')
})
