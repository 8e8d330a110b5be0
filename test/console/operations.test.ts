// The console's tools, jobs, prompts and system pages in Debian's Chromium against a real
// agentd: connect and disconnect an MCP server and see its tools, toggle a job, see
// health, providers, models and plugins. (The prompts page: prompts.test.ts.)
import t from 'tap'
import { startConsoleServer } from './server.ts'
import { launch, openPage, shot, WIDTHS } from './browser.ts'
import { startFixtureServer } from '../fixtures/mcp/server.ts'
import { until } from '../helpers/poll.ts'
import { readFileSync } from 'node:fs'
import path from 'node:path'

t.test('console operations', async t => {
  const { s } = await startConsoleServer(t, { memory: false, jobs: true })
  const browser = await launch(t)

  t.test('MCP: connect a server, see its tools, disconnect it', async t => {
    const { page, errors } = await openPage(t, browser, `${s.url}/#/tools`)
    const card = page.locator('[data-server="fixture"]')
    await card.locator('.badge', { hasText: 'disconnected' }).waitFor()
    await card.getByRole('button', { name: 'Connect' }).click()
    await card.locator('.badge', { hasText: 'connected' }).filter({ hasNotText: 'dis' }).waitFor()
    t.equal((await s.json('/api/mcp/servers')).body.servers[0].status, 'connected', 'connected on the server')
    await card.getByRole('button', { name: 'Show tools' }).click()
    await card.locator('.tool-list code', { hasText: 'greet' }).waitFor()
    t.ok((await card.locator('.tool-list code').allTextContents()).includes('add'), 'its tools are listed')
    // The page's list of every tool shows them too, after a refresh.
    await page.reload()
    await page.locator('table td code', { hasText: 'greet' }).waitFor()
    for (const size of Object.values(WIDTHS)) { await page.setViewportSize(size); await shot(page, 'tools') }
    await card.getByRole('button', { name: 'Disconnect' }).click()
    await card.locator('.badge', { hasText: 'disconnected' }).waitFor()
    t.equal((await s.json('/api/mcp/servers')).body.servers[0].status, 'disconnected', 'disconnected on the server')
    t.same(errors, [])
  })

  t.test('MCP with OAuth: Connect shows Authorize; the approval in a new tab connects the server', async t => {
    const secured = await startFixtureServer('streamable_http', 'secured', 0, { oauth: {} })
    t.teardown(secured.close)
    const servers = JSON.parse(readFileSync(path.join(s.ws.dir, 'mcp_servers.json'), 'utf8')) as { servers: Record<string, unknown> }
    s.ws.write('mcp_servers.json', JSON.stringify({ servers: { ...servers.servers, secured: { url: secured.url, transport: 'streamable_http', auto_connect: false, auth: 'oauth' } } }))
    await until('the new server to be read', async () => (await s.json('/api/mcp/servers')).body.servers.some((x: { name: string }) => x.name === 'secured'))
    const { page, context, errors } = await openPage(t, browser, `${s.url}/#/tools`)
    const card = page.locator('[data-server="secured"]')
    await card.locator('[data-auth]', { hasText: 'OAuth: not authorized' }).waitFor()
    await card.getByRole('button', { name: 'Connect' }).click()
    const authorize = card.getByRole('link', { name: 'Authorize' })
    await authorize.waitFor()
    t.match(await authorize.getAttribute('href'), new RegExp(`^${new URL(secured.url).origin}/authorize\\?`), 'to the authorization server')
    const [tab] = await Promise.all([context.waitForEvent('page'), authorize.click()])
    await tab.waitForURL(/\/api\/mcp\/oauth\/callback/)
    await tab.getByText('agentd is authorized for tool server secured').waitFor()
    await card.getByRole('button', { name: 'Refresh' }).click()
    await card.locator('[data-auth]', { hasText: 'OAuth: authorized' }).waitFor()
    await card.locator('.badge', { hasText: 'connected' }).filter({ hasNotText: 'dis' }).waitFor()
    t.same(secured.authority?.grants, ['authorization_code'])
    t.same(errors, [])
  })

  t.test('jobs: toggle a job and run it', async t => {
    const jobs = await s.json('/api/jobs')
    const { page } = await openPage(t, browser, `${s.url}/#/jobs`)
    for (const size of Object.values(WIDTHS)) { await page.setViewportSize(size); await shot(page, 'jobs') }
    t.equal(jobs.status, 200, 'the jobs plugin serves its API')
    const job = jobs.body.jobs[0] as { name: string, enabled: boolean }
    const card = page.locator(`[data-job="${job.name}"]`)
    const toggle = card.getByRole('switch')
    await toggle.waitFor()
    t.equal(await toggle.isChecked(), job.enabled)
    await toggle.click()
    await card.locator('label.switch', { hasText: job.enabled ? 'disabled' : 'enabled' }).waitFor()
    const after = (await s.json('/api/jobs')).body.jobs.find((j: { name: string }) => j.name === job.name)
    t.equal(after.enabled, !job.enabled, 'toggled on the server')
    await toggle.click()
    await card.locator('label.switch', { hasText: job.enabled ? 'enabled' : 'disabled' }).waitFor()
    await card.getByRole('button', { name: 'Run now' }).click()
    await page.locator('main [role=status], main [role=alert]').first().waitFor()
    await card.getByRole('button', { name: 'History' }).click()
    await card.locator('table.history tbody tr').first().waitFor()
    const detail = (await s.json(`/api/jobs/${job.name}`)).body as { history: unknown[] }
    t.ok(detail.history.length >= 1, 'the run is in the job\'s history on the server, as the page shows')
  })

  t.test('system: health, providers and models, plugins', async t => {
    const { page } = await openPage(t, browser, `${s.url}/#/system`)
    await page.locator('[data-section="api"] .badge', { hasText: 'healthy' }).waitFor()
    await page.locator('table.models td code', { hasText: 'openai/gpt-4o-mini' }).waitFor()
    const row = page.locator('table.models tr', { hasText: 'openai/gpt-4o-mini' })
    t.match(await row.textContent(), /128,000.*\$0\.00015/, 'context window and cost')
    const plugins = page.locator('table.plugins tbody tr')
    await plugins.first().waitFor()
    t.equal(await plugins.count(), (await s.json('/api/plugins')).body.plugins.length, 'every plugin listed')
    t.match(await page.locator('table.plugins tr').filter({ has: page.locator('td:first-child', { hasText: /^console$/ }) }).textContent(), /loaded/)
    for (const size of Object.values(WIDTHS)) { await page.setViewportSize(size); await shot(page, 'system') }
  })
})
