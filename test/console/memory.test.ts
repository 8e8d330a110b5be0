// The console's memory page in Debian's Chromium against a real agentd on the embedded
// memory defaults: channels (create, delete with confirmation), entities and their graph,
// facts with their supersession chain, recall, and the settings forms.
import t from 'tap'
import type { Page } from 'playwright-core'
import { startConsoleServer } from './server.ts'
import { launch, openPage, shot, WIDTHS } from './browser.ts'
import type { MemoryServiceImpl } from '../../plugins/memory/service.ts'
import { seedChannel } from '../memory/transfer-seed.ts'

const tab = async (page: Page, name: string): Promise<void> => { await page.getByRole('tab', { name }).click() }

t.test('console memory', async t => {
  const { s } = await startConsoleServer(t)
  const browser = await launch(t)
  // Seeded through the memory service (it hashes claims and embeds), as consolidation would.
  const graph = s.kernel.current?.app.registry.memoryServices.first() as MemoryServiceImpl | undefined
  if (graph === undefined) throw new Error('no memory service registered')

  t.test('create a channel, then delete it after confirming', async t => {
    const { page, errors } = await openPage(t, browser, `${s.url}/#/memory`)
    await page.locator('tr[data-channel="_global"]').waitFor()
    await page.fill('#new-channel', 'console-test')
    await page.click('text=Create')
    await page.locator('tr[data-channel="console-test"]').waitFor()
    t.equal((await s.json('/api/memory/channels')).body.channels.some((c: { name: string }) => c.name === 'console-test'), true, 'the server has it')
    // A bad name: the server's 400 is shown.
    await page.fill('#new-channel', 'no spaces')
    await page.click('text=Create')
    await page.locator('[role=alert]').waitFor()
    t.match(await page.locator('[role=alert]').textContent(), /body\.name/)
    // Dismissing the confirmation keeps the channel; accepting deletes it.
    page.once('dialog', d => { t.match(d.message(), /Delete channel "console-test"/); void d.dismiss() })
    await page.click('button[aria-label="Delete channel console-test"]')
    t.equal(await page.locator('tr[data-channel="console-test"]').count(), 1, 'still there after Cancel')
    page.once('dialog', d => { void d.accept() })
    await page.click('button[aria-label="Delete channel console-test"]')
    await page.locator('tr[data-channel="console-test"]').waitFor({ state: 'detached' })
    t.equal((await s.json('/api/memory/channels')).body.channels.some((c: { name: string }) => c.name === 'console-test'), false, 'gone on the server')
    t.notOk(await page.locator('button[aria-label="Delete channel _global"]').count(), '_global offers no delete')
    for (const size of Object.values(WIDTHS)) { await page.setViewportSize(size); await shot(page, 'memory-channels') }
    t.same(errors, [])
  })

  t.test('entities: search and type filter; open a graph and change its depth', async t => {
    const ada = (await graph.semantic.addEntity({ name: 'Ada Lovelace', type: 'Person', channel: 'science' })).entity
    const babbage = (await graph.semantic.addEntity({ name: 'Charles Babbage', type: 'Person', channel: 'science' })).entity
    const engine = (await graph.semantic.addEntity({ name: 'Analytical Engine', type: 'Machine', channel: 'science' })).entity
    const punch = (await graph.semantic.addEntity({ name: 'Punched cards', type: 'Concept', channel: 'science' })).entity
    await graph.semantic.relate({ source_id: ada.id, target_id: babbage.id, type: 'worked_with', channel: 'science' })
    await graph.semantic.relate({ source_id: babbage.id, target_id: engine.id, type: 'designed', channel: 'science' })
    await graph.semantic.relate({ source_id: engine.id, target_id: punch.id, type: 'reads', channel: 'science' })
    await graph.semantic.addFact({ claim: 'Ada Lovelace wrote the first program', entity_ids: [ada.id], channel: 'science', source: 'user_stated' })
    const { page } = await openPage(t, browser, `${s.url}/#/memory`)
    await tab(page, 'Entities')
    await page.locator('td', { hasText: 'Ada Lovelace' }).waitFor()
    await page.getByLabel('Type').fill('Machine')
    await page.locator('tbody tr').filter({ hasText: 'Ada Lovelace' }).waitFor({ state: 'detached' })
    t.same(await page.locator('tbody tr td:first-child').allTextContents(), ['Analytical Engine'], 'type filter')
    await page.getByLabel('Type').fill('')
    await page.getByLabel('Search').fill('ada')
    await page.locator('tbody tr').filter({ hasText: 'Charles Babbage' }).waitFor({ state: 'detached' })
    await page.click('button[aria-label="Graph of Ada Lovelace"]')
    const svg = page.locator('svg.graph')
    await svg.waitFor()
    await page.locator('.graph .node[aria-label="Analytical Engine (Machine)"]').waitFor()
    t.same((await svg.locator('.edge text').allTextContents()).sort(), ['designed', 'worked_with'], 'depth 2 by default')
    t.match(await page.locator('.graph-panel').textContent(), /Ada Lovelace wrote the first program/, 'its facts')
    await page.locator('.graph-panel select').selectOption('3')
    await page.locator('.graph .node[aria-label="Punched cards (Concept)"]').waitFor()
    t.equal(await svg.locator('.edge').count(), 3, 'depth 3 reaches the punched cards')
    await page.locator('.graph-panel select').selectOption('1')
    await page.locator('.graph .node[aria-label="Analytical Engine (Machine)"]').waitFor({ state: 'detached' })
    t.equal(await svg.locator('.edge').count(), 1, 'depth 1')
    // Keyboard: a neighbour is a button; Enter re-centres the graph on it.
    await page.locator('.graph .node[aria-label="Charles Babbage (Person)"]').focus()
    await page.keyboard.press('Enter')
    await page.locator('.graph-panel h3', { hasText: 'Charles Babbage' }).waitFor()
    t.pass('re-centred on Charles Babbage')
    for (const size of Object.values(WIDTHS)) { await page.setViewportSize(size); await shot(page, 'memory-graph') }
  })

  t.test('facts: confidence, temporal context and the supersession chain', async t => {
    const old = (await graph.semantic.addFact({ claim: 'I live in Berlin', channel: 'home', confidence: 0.7, temporal_context: 'past', source: 'user_stated' })).fact
    await graph.semantic.supersedeFact(old.id, { claim: 'I live in Lisbon', channel: 'home', confidence: 0.9, temporal_context: 'current', source: 'user_stated' })
    const { page } = await openPage(t, browser, `${s.url}/#/memory`)
    await tab(page, 'Facts')
    const row = page.locator('tbody tr', { hasText: 'I live in Lisbon' })
    await row.waitFor()
    t.equal(await page.locator('tbody tr', { hasText: 'I live in Berlin' }).count(), 0, 'superseded facts hidden by default')
    t.match(await row.textContent(), /90%.*current/)
    await row.getByRole('button', { name: 'History' }).click()
    const chain = row.locator('ol.chain li')
    await chain.nth(1).waitFor()
    t.same((await chain.allTextContents()).map(x => x.split(' ').slice(0, 4).join(' ')), ['I live in Berlin', 'I live in Lisbon'], 'oldest first')
    t.match(await chain.first().textContent(), /superseded/)
    await page.getByLabel('superseded too').check()
    await page.locator('tbody tr.superseded', { hasText: 'I live in Berlin' }).waitFor()
    t.pass('superseded facts listed on request')
    for (const size of Object.values(WIDTHS)) { await page.setViewportSize(size); await shot(page, 'memory-facts') }
  })

  t.test('recall from the search box shows what each technique found', async t => {
    await graph.semantic.addFact({ claim: 'The cat is called Whiskers', channel: 'pets', source: 'user_stated' })
    const { page } = await openPage(t, browser, `${s.url}/#/memory`)
    await tab(page, 'Recall')
    await page.getByLabel('Query').fill('what is the cat called')
    await page.locator('form[role=search] select').selectOption('pets')
    await page.click('form[role=search] button[type=submit]')
    const found = page.locator('.found li', { hasText: 'The cat is called Whiskers' })
    await found.waitFor()
    t.match(await found.textContent(), /score .*vector_recency/, 'the item with its score and technique')
    t.match(await page.locator('.recall').textContent(), /Techniques that answered: vector_recency/)
    for (const size of Object.values(WIDTHS)) { await page.setViewportSize(size); await shot(page, 'memory-recall') }
  })

  t.test('export a channel, import it into a new one: the same lists and recall', async t => {
    await seedChannel(graph, 'trip-src')
    const { page, errors } = await openPage(t, browser, `${s.url}/#/memory`)
    await tab(page, 'Export / import')
    await page.locator('#export-channel option', { hasText: 'trip-src' }).waitFor({ state: 'attached' })
    await page.selectOption('#export-channel', 'trip-src')
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('section[aria-label=export] button')])
    t.match(download.suggestedFilename(), /^agentd-memory-trip-src-.*\.jsonl$/)
    const file = await download.path()
    await page.locator('.ok', { hasText: 'lines' }).waitFor()
    await page.setInputFiles('#import-file', file)
    await page.fill('#import-channel', 'trip-copy')
    await page.click('form button[type=submit]:has-text("Import")')
    await page.locator('table.import-result').waitFor()
    t.match(await page.locator('.transfer [role=status].ok').last().textContent(), /Imported \(agentd\) into trip-copy/)
    for (const size of Object.values(WIDTHS)) { await page.setViewportSize(size); await shot(page, 'memory-transfer') }
    await page.setViewportSize(WIDTHS.desktop)
    // The lists of both channels hold the same items.
    const list = async (kind: string, key: string, channel: string): Promise<string[]> =>
      ((await s.json(`/api/memory/${kind}?channel=${channel}&limit=100${kind === 'facts' ? '&include_superseded=true' : ''}`)).body[kind] as Array<Record<string, string>>).map(x => x[key]).sort()
    for (const [kind, key] of [['entities', 'name'], ['facts', 'claim'], ['strategies', 'description']]) {
      t.same(await list(kind, key, 'trip-copy'), await list(kind, key, 'trip-src'), `${kind}: the same`)
    }
    // The channels tab counts the same items in both.
    await tab(page, 'Channels')
    const counts = async (name: string): Promise<string[]> => await page.locator(`tr[data-channel="${name}"] td.num`).allTextContents()
    await page.locator('tr[data-channel="trip-copy"]').waitFor()
    t.same(await counts('trip-copy'), await counts('trip-src'), 'the same counts')
    // Recall from the page finds the same in both.
    // Each recall on a freshly opened page, so the answer read is that channel's.
    const recall = async (channel: string): Promise<string[]> => {
      await page.goto(`${s.url}/#/memory`)
      await tab(page, 'Recall')
      await page.getByLabel('Query').fill('where does Ada live now')
      await page.locator('form[role=search] select').selectOption(channel)
      await page.click('form[role=search] button[type=submit]')
      await page.locator('.recall', { hasText: 'Techniques that answered' }).waitFor()
      await page.locator('.found li').first().waitFor()
      return (await page.locator('.found li').allTextContents()).map(x => x.replace(/score .*/, '').trim())
    }
    const src = await recall('trip-src')
    t.ok(src.some(x => x.includes('Ada lives in Lisbon')), 'recall finds the current fact')
    t.same(await recall('trip-copy'), src, 'the same recall in the copy')
    // A bad file: the server's line numbers are shown, nothing changes.
    await tab(page, 'Export / import')
    await page.setInputFiles('#import-file', { name: 'bad.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from('{"kind":"header","format":"agentd-memory","version":1}\n{"kind":"fact"}\n') })
    await page.click('form button[type=submit]:has-text("Import")')
    await page.locator('[role=alert]', { hasText: 'line 2' }).waitFor()
    t.pass('the bad line is named')
    t.same(errors, [])
  })

  t.test('memory and recall settings forms', async t => {
    const memorySettings = await s.json('/api/memory/settings')
    const recallSettings = await s.json('/api/memory/recall-settings')
    const { page } = await openPage(t, browser, `${s.url}/#/memory`)
    await tab(page, 'Settings')
    for (const size of Object.values(WIDTHS)) { await page.setViewportSize(size); await shot(page, 'memory-settings') }
    if (memorySettings.status === 404 || recallSettings.status === 404) {
      // Not on main yet (issues 16 and 17): the page says so instead of failing.
      await page.locator('.notice', { hasText: 'Memory settings is not available' }).or(page.locator('.notice', { hasText: 'Recall settings is not available' })).first().waitFor()
      t.skip(`GET /api/memory/settings answered ${memorySettings.status}, /api/memory/recall-settings ${recallSettings.status}: forms tested once those endpoints exist`, () => {})
      return
    }
    const box = page.locator('#set-recall_enable_hybrid')
    await box.waitFor()
    const was = await box.isChecked()
    await box.setChecked(!was)
    await page.click('text=Save recall settings')
    await page.locator('.ok', { hasText: 'recall_enable_hybrid' }).waitFor()
    const after = await s.json('/api/memory/recall-settings')
    t.match(JSON.stringify(after.body), new RegExp(`"recall_enable_hybrid":(\\{"value":)?${String(!was)}`), 'saved on the server')
  })
})
