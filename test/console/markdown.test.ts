// Answers rendered as Markdown in Debian's Chromium: headings, a table and a highlighted
// code block with a copy button; a streamed answer rewrites only its last block; hostile
// Markdown and HTML from the model is shown inert (nothing runs, nothing is injected).
import t from 'tap'
import { startConsoleServer } from './server.ts'
import { launch, openPage, shot, WIDTHS } from './browser.ts'
import { gate } from '../helpers/gate.ts'

const RICH = [
  '## Totals',
  '',
  'The **sum** is in `total`:',
  '',
  '```js',
  'const total = items.reduce((a, b) => a + b, 0)',
  '```',
  '',
  '| item | price |',
  '| --- | ---: |',
  '| tea | 3 |',
  '| cake | 4 |',
  '',
].join('\n')

const HOSTILE = [
  'Harmless text.',
  '',
  '<script>window.__pwned = "script"</script>',
  '<img src="x" onerror="window.__pwned = \'img\'">',
  '<svg><svg onload="window.__pwned = \'svg\'"></svg></svg>',
  '<details open ontoggle="window.__pwned = \'toggle\'"><summary>s</summary>d</details>',
  '<iframe srcdoc="<script>parent.__pwned = 1</script>"></iframe>',
  '<div class="top" style="position:fixed;inset:0;background:red">overlay</div>',
  '<form action="/api/config/update" method="post"><button>Click me</button></form>',
  '',
  '[a markdown link](javascript:window.__pwned=\'md-link\')',
  '<a href="javascript:window.__pwned=\'a\'">an html link</a>',
  '',
].join('\n')

t.test('console markdown', async t => {
  const { s, fake } = await startConsoleServer(t, { memory: false })
  const browser = await launch(t)

  t.test('a heading, inline code, a highlighted code block with a copy button and a table', async t => {
    const { page, context, errors } = await openPage(t, browser, `${s.url}/#/chat`)
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: s.url })
    fake.enqueue({ text: RICH, chunkSize: 7 })
    await page.fill('#chat-input', 'Add up my bill')
    await page.keyboard.press('Enter')
    await page.locator('button.stop').waitFor({ state: 'detached' })
    const answer = page.locator('.msg.assistant .answer')
    t.equal(await answer.locator('h2').textContent(), 'Totals')
    t.equal(await answer.locator('strong').textContent(), 'sum')
    t.equal(await answer.locator('p code').textContent(), 'total')
    t.same(await answer.locator('table tbody tr').evaluateAll(rows => rows.map(r => [...r.querySelectorAll('td')].map(c => c.textContent))), [['tea', '3'], ['cake', '4']])
    const code = answer.locator('.code-block')
    t.equal(await code.locator('.code-head span').textContent(), 'javascript', 'the language named')
    t.equal(await code.locator('.hljs-keyword').first().textContent(), 'const', 'keywords highlighted')
    await code.getByRole('button', { name: 'Copy code' }).click()
    await code.getByRole('button', { name: 'Copy code' }).filter({ hasText: 'Copied' }).waitFor()
    t.equal(await page.evaluate('navigator.clipboard.readText()'), 'const total = items.reduce((a, b) => a + b, 0)', 'the code, as written')
    for (const size of Object.values(WIDTHS)) { await page.setViewportSize(size); await shot(page, 'chat-markdown') }
    t.same(errors, [])
  })

  t.test('while an answer streams, the finished blocks above its end are not rewritten', async t => {
    const { page } = await openPage(t, browser, `${s.url}/#/chat`)
    // Held once the table and a few words after it are out (6 characters a delta).
    const rest = gate()
    t.teardown(() => { rest.open() })
    const head = '| a | b |\n| - | - |\n| 1 | 2 |\n\nmore words more words '
    fake.enqueue({ text: `${head}${'more words '.repeat(40)}`, chunkSize: 6, hold: { after: 1 + Math.ceil(head.length / 6), gate: rest.promise } })
    await page.fill('#chat-input', 'Stream a table then talk')
    await page.keyboard.press('Enter')
    const answer = page.locator('.msg.assistant .answer')
    await answer.locator('p', { hasText: 'more words more words' }).waitFor()
    t.ok(await page.locator('button.stop').isVisible(), 'still streaming')
    const table = await answer.locator('table').elementHandle()
    // The paragraph after it grows with each of the remaining deltas: many re-renders.
    rest.open()
    await page.locator('button.stop').waitFor({ state: 'detached' })
    t.match(await answer.locator('p').textContent(), 'more words '.repeat(40).trim(), 'the whole answer')
    t.equal(await table?.evaluate(el => el.isConnected), true, 'the table element that was first shown is still the one on the page')
  })

  t.test('hostile Markdown and HTML from the model: nothing runs, nothing is injected', async t => {
    const { page, errors } = await openPage(t, browser, `${s.url}/#/chat`)
    // Every CSP violation, with the script that caused it.
    await page.evaluate(`document.addEventListener('securitypolicyviolation', e => { window.__violations = [...(window.__violations ?? []), e.sourceFile] })`)
    fake.enqueue({ text: HOSTILE, chunkSize: 9 })
    await page.fill('#chat-input', 'Say something nasty')
    await page.keyboard.press('Enter')
    await page.locator('button.stop').waitFor({ state: 'detached' })
    const answer = page.locator('.msg.assistant .answer')
    t.match(await answer.textContent(), /Harmless text\./)
    const found = await answer.evaluate(el => ({
      scripts: el.querySelectorAll('script, iframe, form, button, style').length,
      // Inside the blocks (the blocks' own wrappers carry the page's class).
      handlers: [...el.querySelectorAll('.md-block *')].flatMap(n => [...n.attributes].map(a => a.name)).filter(a => a.startsWith('on') || a === 'style' || a === 'class' || a === 'srcdoc'),
      links: [...el.querySelectorAll('a')].map(a => ({ text: a.textContent, href: a.getAttribute('href') })),
    }))
    t.equal(found.scripts, 0, 'no script, frame, form, button or style element')
    t.same(found.handlers, [], 'no event handler, style, class or srcdoc attribute')
    t.notOk(found.links.some(l => /^\s*javascript:/i.test(l.href ?? '')), `no javascript: link (${JSON.stringify(found.links)})`)
    t.equal(await page.evaluate('window.__pwned'), undefined, 'nothing ran')
    t.equal(await page.locator('.top').count(), 1, 'the page\'s own header only')
    // Chromium reports the handlers it meets while DOMPurify parses the text in its inert
    // DOMParser document (nothing runs there); none comes from an element on the page.
    const violations = await page.evaluate('window.__violations ?? []') as string[]
    t.ok(violations.every(f => f.endsWith('/console/vendor/dompurify.mjs')), `CSP reports only from the sanitiser's parse: ${JSON.stringify(violations)}`)
    t.same(errors.filter(e => !e.startsWith('Executing inline event handler violates')), [])
  })
})
