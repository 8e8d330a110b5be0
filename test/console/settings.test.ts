// First run in Debian's Chromium: with no usable provider the chat page says why and links
// the Settings page; a key and base URL set there (write-only: the page never shows the
// key) apply at once, and a chat then works against the fake upstream.
import t from 'tap'
import { startConsoleServer } from './server.ts'
import { launch, openPage, shot, WIDTHS } from './browser.ts'

t.test('console first run and settings', async t => {
  // No key anywhere, and the provider's default address is a closed port.
  const { s, fake } = await startConsoleServer(t, { memory: false, openaiBaseUrl: 'http://127.0.0.1:9/v1', env: { OPENAI_API_KEY: '' } })
  const browser = await launch(t)

  t.test('the banner says why, Settings sets a key and base URL, and a chat then works', async t => {
    const { page, errors } = await openPage(t, browser, `${s.url}/#/chat`)
    const banner = page.getByRole('status', { name: 'no provider' })
    await banner.waitFor()
    t.match(await banner.textContent(), /No model provider is usable/)
    t.match(await banner.locator('.why').textContent(), /openai/, 'names the provider and its reason')
    for (const size of Object.values(WIDTHS)) { await page.setViewportSize(size); await shot(page, 'chat-first-run') }
    await page.setViewportSize(WIDTHS.desktop)

    await banner.getByRole('link', { name: /Settings page/ }).click()
    const form = page.locator('form[data-provider="openai"]')
    await form.waitFor()
    t.equal(await form.locator('.key-state').textContent(), 'API key: not set')
    await form.locator('input[name=api_key]').fill('sk-from-the-page')
    await form.locator('input[name=base_url]').fill(fake.url)
    await form.getByRole('button', { name: 'Save openai' }).click()
    // Saved, reloaded from the server: the key is set, in data/config.json, and not shown.
    await page.locator('form[data-provider="openai"] .key-state', { hasText: 'set (in data/config.json)' }).waitFor()
    t.equal(await page.locator('form[data-provider="openai"] input[name=api_key]').inputValue(), '', 'the key field stays empty')
    t.notMatch(await page.content(), /sk-from-the-page/, 'the key is nowhere on the page')
    const cfg = (await s.json('/api/config')).body
    t.same(cfg.providers.openai.api_key, { set: true, source: 'config' }, 'the server has it')
    for (const size of Object.values(WIDTHS)) { await page.setViewportSize(size); await shot(page, 'settings') }
    await page.setViewportSize(WIDTHS.desktop)

    // The providers list is read again on the chat page: no banner now.
    const providersRead = page.waitForResponse(r => r.url().endsWith('/api/providers') && r.ok())
    await page.getByRole('link', { name: 'Chat' }).click()
    await providersRead
    await page.locator('#chat-input').waitFor()
    t.equal(await page.getByRole('status', { name: 'no provider' }).count(), 0, 'no banner once a provider is usable')
    const before = fake.completions.length
    fake.enqueue({ text: 'Hello from the configured provider.' })
    await page.fill('#chat-input', 'hello')
    await page.keyboard.press('Enter')
    await page.locator('.answer', { hasText: 'Hello from the configured provider.' }).waitFor()
    t.equal(fake.completions[before]?.headers.authorization, 'Bearer sk-from-the-page', 'the new key went to the new address')
    t.same(errors, [])
  })

  t.test('preferences: memory off by default is saved and the chat page starts with it off', async t => {
    const { page } = await openPage(t, browser, `${s.url}/#/settings`)
    const prefs = page.locator('form.prefs')
    await prefs.waitFor()
    await prefs.locator('input[name=memory]').uncheck()
    await prefs.getByRole('button', { name: 'Save preferences' }).click()
    await page.locator('.saved[role=status]').waitFor()
    t.equal((await s.json('/api/config')).body.preferences.enable_memory_by_default, false)
    await page.getByRole('link', { name: 'Chat' }).click()
    const memory = page.getByRole('checkbox', { name: 'Memory' })
    await page.waitForFunction(() => !(globalThis as unknown as { document: { querySelector: (s: string) => { checked: boolean } | null } }).document.querySelector('.pickers input[type=checkbox]')?.checked)
    t.equal(await memory.isChecked(), false)
  })
})
