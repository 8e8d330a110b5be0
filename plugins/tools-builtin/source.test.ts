import t from 'tap'
import { createBuiltinSource } from './source.ts'
import { currentTime } from './time.ts'

const source = createBuiltinSource('tools-builtin', { default_timezone: 'UTC', tools: ['current_time', 'calculate'] })

t.test('lists its tools with JSON Schemas and its own name as server', async t => {
  const tools = await source.listTools()
  t.same(tools.map(x => x.name), ['current_time', 'calculate'])
  t.ok(tools.every(x => x.server === 'tools-builtin' && x.input_schema.type === 'object'))
})

t.test('calculate returns the result as JSON text', async t => {
  t.same(await source.callTool('calculate', { expression: '(1 + 2) * 3' }), { content: '{"expression":"(1 + 2) * 3","result":9}', isError: false })
})

t.test('a tool failure is a result with isError, never a throw', async t => {
  const r = await source.callTool('calculate', { expression: 'drop table' })
  t.equal(r.isError, true)
  t.match(r.content, /calculate failed: unknown name "drop"/)
  t.equal((await source.callTool('calculate', {})).isError, true)
  t.equal((await source.callTool('nope', {})).isError, true)
})

t.test('current_time in a zone, with offset; an unknown zone is an error result', async t => {
  const at = new Date('2026-07-01T12:00:00Z')
  const paris = currentTime('Europe/Paris', at)
  t.equal(paris.iso, '2026-07-01T14:00:00+02:00')
  t.equal(paris.weekday, 'Wednesday')
  t.equal(currentTime('UTC', at).iso, '2026-07-01T12:00:00Z')
  t.equal(currentTime('Asia/Kolkata', at).utc_offset, '+05:30')
  const r = await source.callTool('current_time', { timezone: 'Mars/Olympus' })
  t.equal(r.isError, true)
  t.match(r.content, /unknown time zone "Mars\/Olympus"/)
})

t.test('only the configured tools are offered', async t => {
  const only = createBuiltinSource('b', { default_timezone: 'UTC', tools: ['calculate'] })
  t.same((await only.listTools()).map(x => x.name), ['calculate'])
  t.equal((await only.callTool('current_time', {})).isError, true)
})
