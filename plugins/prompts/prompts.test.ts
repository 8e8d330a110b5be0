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

async function start (t: Test, text = FILE): Promise<Awaited<ReturnType<typeof startKernel>>> {
  const ws = new Workspace()
  t.teardown(() => { ws.remove() })
  ws.write('data/system_prompts.yaml', text)
  return await startKernel(t, { ws, plugins })
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
  const s = await start(t)
  const file = path.join(s.ws.dataDir, 'system_prompts.yaml')
  writeFileSync(file, FILE.replace('SECTION-10', 'EDITED-10'))
  await until('the edit to show', async () => /EDITED-10/.test((await s.json('/api/prompts/compose')).body.system_prompt))
  t.equal(s.kernel.api.generation(), 1, 'edit picked up without a rebuild of the generation')
  writeFileSync(file, FILE.replace('type: format', 'type: nonsense'))
  // The watcher has read the bad file once the store reports why it refused it.
  await until('the bad edit to be read and refused', () => s.kernel.current?.app.prompts.lastError !== undefined)
  t.match(s.kernel.current?.app.prompts.lastError, /type/, 'the refusal names the bad field')
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
