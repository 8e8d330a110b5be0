// The console's prompts page in Debian's Chromium against a real agentd: edit the global
// prompt; edit a profile's sections (content, enabled, reorder, add, remove) from the
// keyboard and see it through the API and after a reload; create and delete a profile.
import t from 'tap'
import { startConsoleServer } from './server.ts'
import { launch, openPage, shot, WIDTHS } from './browser.ts'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

t.test('console prompts', async t => {
  const { s } = await startConsoleServer(t, { memory: false })
  const browser = await launch(t)
  const profile = async (id: string): Promise<Json> => (await s.json(`/api/prompts/profiles/${id}`)).body.profile as Json
  const ids = (p: Json): string[] => (p.sections as Json[]).map(x => x.id as string)

  t.test('the global prompt is saved', async t => {
    const { page, errors } = await openPage(t, browser, `${s.url}/#/prompts`)
    const box = page.locator('#global-prompt')
    await box.waitFor()
    await box.fill('You are the console test assistant.')
    await page.click('text=Save global prompt')
    await page.locator('.ok', { hasText: 'Saved.' }).waitFor()
    t.equal((await s.json('/api/prompts/global')).body.global_prompt.content, 'You are the console test assistant.', 'saved on the server')
    t.same(errors, [])
  })

  t.test('a profile\'s sections edited in the page: seen through the API and after a reload', async t => {
    const before = await profile('concise')
    t.same(ids(before), ['persona', 'format'], 'the shipped profile as the test expects it')
    const { page, errors } = await openPage(t, browser, `${s.url}/#/prompts`)
    const card = page.locator('[data-profile="concise"]')
    await card.getByRole('button', { name: /^Edit / }).click()
    const editor = card.locator('form.profile-edit')
    await editor.waitFor()
    const persona = editor.locator('[data-section="persona"]')
    const format = editor.locator('[data-section="format"]')

    // Edit the content of a section by typing into it.
    await persona.getByLabel('Content').fill('You are terse. EDITED IN THE CONSOLE.')
    // Disable the format section with the keyboard: focus its checkbox, Space toggles it.
    await format.getByLabel('enabled').focus()
    await page.keyboard.press('Space')
    t.equal(await format.getByLabel('enabled').isChecked(), false, 'unchecked by the keyboard')
    // Move format above persona with the keyboard: Enter on its "Up" button; the focus follows it.
    await format.getByRole('button', { name: /^Move .* up$/ }).focus()
    await page.keyboard.press('Enter')
    t.same(await editor.locator('li.section-edit').evaluateAll(els => els.map(e => e.getAttribute('data-section'))), ['format', 'persona'], 'reordered in the page')
    t.equal(await page.evaluate('document.activeElement?.closest("li")?.dataset.section'), 'format', 'the focus moved with the section')
    // Add a section by name (Enter in the name field), give it content.
    await editor.getByLabel('New section name').fill('Examples please')
    await page.keyboard.press('Enter')
    const added = editor.locator('[data-section="examples-please"]')
    await added.waitFor()
    await added.getByLabel('Type').selectOption('examples')
    await added.getByLabel('Content').fill('Example: yes.')
    await editor.getByRole('button', { name: 'Save profile' }).click()
    await editor.locator('.ok', { hasText: 'Saved.' }).waitFor()

    const after = await profile('concise')
    t.same(ids(after), ['format', 'persona', 'examples-please'], 'the order on the server')
    t.same((after.sections as Json[]).map(x => x.order), [10, 20, 30], 'order follows the list')
    t.equal((after.sections as Json[])[0].enabled, false, 'format disabled on the server')
    t.equal((after.sections as Json[])[1].content, 'You are terse. EDITED IN THE CONSOLE.')
    t.match((after.sections as Json[])[2], { name: 'Examples please', type: 'examples', content: 'Example: yes.', enabled: true })
    const composed = (await s.json('/api/prompts/compose?profile_id=concise')).body.system_prompt as string
    t.match(composed, /EDITED IN THE CONSOLE\.\n\nExample: yes\.$/, 'composed from the new sections in their order')

    for (const size of Object.values(WIDTHS)) { await page.setViewportSize(size); await shot(page, 'prompts') }

    // After a reload the page shows what the server has.
    await page.reload()
    await page.locator('[data-profile="concise"]').getByRole('button', { name: /^Edit / }).click()
    const again = page.locator('[data-profile="concise"] form.profile-edit')
    await again.locator('li.section-edit').first().waitFor()
    t.same(await again.locator('li.section-edit').evaluateAll(els => els.map(e => e.getAttribute('data-section'))), ['format', 'persona', 'examples-please'])
    t.equal(await again.locator('[data-section="persona"]').getByLabel('Content').inputValue(), 'You are terse. EDITED IN THE CONSOLE.')
    t.equal(await again.locator('[data-section="format"]').getByLabel('enabled').isChecked(), false)
    t.match(await page.locator('[data-profile="concise"] .row').first().textContent(), /2\/3 sections on/, 'the counts in the list')

    // Remove a section and save: gone on the server.
    await again.getByRole('button', { name: 'Remove Examples please' }).click()
    await again.getByRole('button', { name: 'Save profile' }).click()
    await again.locator('.ok', { hasText: 'Saved.' }).waitFor()
    t.same(ids(await profile('concise')), ['format', 'persona'], 'removed on the server')
    t.same(errors, [])
  })

  t.test('a refused edit shows the server\'s message; create and delete a profile', async t => {
    const { page, errors } = await openPage(t, browser, `${s.url}/#/prompts`)
    await page.locator('#new-profile-id').fill('scratch')
    await page.locator('#new-profile-name').fill('Scratch pad')
    await page.getByRole('button', { name: 'Create profile' }).click()
    const card = page.locator('[data-profile="scratch"]')
    const editor = card.locator('form.profile-edit')
    await editor.waitFor()
    t.equal((await s.json('/api/prompts/profiles/scratch')).status, 200, 'created on the server')
    // Creating it again: the server's 409 is shown.
    await page.locator('#new-profile-id').fill('scratch')
    await page.getByRole('button', { name: 'Create profile' }).click()
    t.match(await page.locator('form.new-profile [role=alert]').textContent(), /already exists.*AGENT_ERR_PROMPTS_PROFILE_EXISTS/)
    // The default profile's delete button is disabled; this one's works after confirming.
    await page.locator('[data-profile="default"]').getByRole('button', { name: /^Edit / }).click()
    t.equal(await page.locator('[data-profile="default"]').getByRole('button', { name: 'Delete profile' }).isDisabled(), true, 'the default cannot be deleted')
    // One editor is open at a time: open the new profile's again.
    await card.getByRole('button', { name: /^Edit / }).click()
    page.once('dialog', d => { void d.accept() })
    await editor.getByRole('button', { name: 'Delete profile' }).click()
    await card.waitFor({ state: 'detached' })
    t.equal((await s.json('/api/prompts/profiles/scratch')).status, 404, 'deleted on the server')
    t.same(errors, [])
  })
})
