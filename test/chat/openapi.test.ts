// The chat and prompts routes appear in the generated OpenAPI document.
import t from 'tap'
import { startChat } from './helpers.ts'

t.test('OpenAPI lists the chat, status and prompts routes', async t => {
  const { s } = await startChat(t)
  const res = await s.get('/docs/json')
  t.equal(res.status, 200)
  const doc = await res.json() as { paths: Record<string, Record<string, unknown>> }
  for (const [path, method] of [
    ['/api/agent/chat', 'post'], ['/api/agent/chat/stream', 'post'], ['/api/agent/status', 'get'],
    ['/api/prompts/profiles', 'get'], ['/api/prompts/profiles/{profile_id}', 'get'], ['/api/prompts/global', 'get'],
    ['/api/prompts/global/update', 'post'], ['/api/prompts/sections', 'get'], ['/api/prompts/compose', 'get'],
  ]) t.ok(doc.paths[path]?.[method], `${method.toUpperCase()} ${path}`)
})
