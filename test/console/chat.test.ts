// The console's chat page in Debian's Chromium against a real agentd and the fake
// upstream: streaming, folded thinking, inline tool calls, stop, reopening a session,
// and the server's error message.
import t from 'tap'
import { startConsoleServer } from './server.ts'
import { launch, openPage, shot, WIDTHS } from './browser.ts'
import { pollUntil } from '../helpers/poll.ts'
import { gate } from '../helpers/gate.ts'

t.test('console chat', async t => {
  const { s, fake } = await startConsoleServer(t, { memory: false })
  const browser = await launch(t)

  t.test('an answer streams in as it arrives and thinking is folded', async t => {
    const { page, errors } = await openPage(t, browser, `${s.url}/#/chat`)
    // Held mid-answer (after the thinking and "The answer is f"): the page shows part of it while it streams.
    const rest = gate()
    t.teardown(() => { rest.open() })
    fake.enqueue({ text: '<think>Six times seven.</think>The answer is forty-two, as computed step by step.', chunkSize: 3, hold: { after: 17, gate: rest.promise } })
    await page.fill('#chat-input', 'What is six times seven?')
    await page.keyboard.press('Enter')
    // Part of the answer is on screen while the Stop button still shows: it streams.
    const answer = page.locator('.msg.assistant .answer')
    await answer.filter({ hasText: 'The answer' }).waitFor()
    t.ok(await page.locator('button.stop').isVisible(), 'still streaming when the first words show')
    t.notMatch(await answer.textContent(), /step by step\.$/, 'not the whole answer yet')
    rest.open()
    await page.locator('button.stop').waitFor({ state: 'detached' })
    t.equal(await answer.textContent(), 'The answer is forty-two, as computed step by step.')
    const thinking = page.locator('details.thinking')
    t.equal(await thinking.getAttribute('open'), null, 'thinking is folded')
    t.equal((await thinking.locator('pre').textContent())?.trim(), 'Six times seven.')
    await thinking.locator('summary').click()
    t.ok(await thinking.locator('pre').isVisible(), 'and opens on click')
    t.equal(await page.locator('.msg.user .bubble').textContent(), 'What is six times seven?')
    t.same(errors, [])
  })

  t.test('a tool call and its result show inline', async t => {
    const { page } = await openPage(t, browser, `${s.url}/#/chat`)
    fake.enqueue(
      { text: '', tool_calls: [{ id: 'c1', name: 'slow_echo', arguments: { text: 'pong from the tool', ms: 0 } }] },
      { text: 'The tool said pong.' },
    )
    await page.fill('#chat-input', 'Call the echo tool')
    await page.click('.composer button[type=submit]')
    const tool = page.locator('details.tool')
    await tool.waitFor()
    t.equal(await tool.locator('summary code').textContent(), 'slow_echo')
    await page.locator('.tool-result').waitFor()
    t.equal(await page.locator('.tool-result').textContent(), 'pong from the tool')
    t.match(await tool.locator('pre').first().textContent(), /"text": "pong from the tool"/, 'the arguments')
    await page.locator('.msg.assistant .answer').filter({ hasText: 'The tool said pong.' }).waitFor()
    // The tool block comes before the answer that used it.
    const order = await page.locator('.msg.assistant > *').evaluateAll(els => els.map(e => e.className))
    t.ok(order.indexOf('tool') < order.findIndex(c => c.includes('answer')), `tool then answer: ${order.join(',')}`)
    for (const [name, size] of Object.entries(WIDTHS)) {
      await page.setViewportSize(size)
      t.ok(await shot(page, 'chat'), `screenshot ${name}`)
    }
  })

  t.test('Stop aborts the stream and the upstream request', async t => {
    const { page } = await openPage(t, browser, `${s.url}/#/chat`)
    const before = fake.completions.length
    fake.enqueue({ text: 'word '.repeat(400), chunkSize: 5, delayMs: 50 })
    await page.fill('#chat-input', 'Talk for a long time')
    await page.keyboard.press('Enter')
    await page.locator('.msg.assistant .answer').waitFor()
    await page.click('button.stop')
    await page.locator('.stopped').waitFor()
    t.equal(await page.locator('.stopped').textContent(), 'Stopped.')
    const req = await pollUntil(() => fake.completions[before], r => r?.aborted === true)
    t.equal(req?.aborted, true, 'the upstream request was cancelled')
    t.ok(await page.locator('.composer button[type=submit]').isVisible(), 'ready for the next message')
  })

  t.test('a session is listed and reopened; the next message continues it on the server', async t => {
    const { page } = await openPage(t, browser, `${s.url}/#/chat`)
    fake.enqueue({ text: 'Noted: your cat is Tom.' })
    await page.fill('#chat-input', 'My cat is called Tom')
    await page.keyboard.press('Enter')
    await page.locator('.answer', { hasText: 'Noted' }).waitFor()
    await page.click('text=+ New chat')
    t.equal(await page.locator('.msg').count(), 0, 'a new chat is empty')
    await page.locator('.sessions button.session', { hasText: 'My cat is called Tom' }).click()
    await page.locator('.answer', { hasText: 'Noted: your cat is Tom.' }).waitFor()
    // Reload the page: the list survives (localStorage) and reopens the same session.
    await page.reload()
    await page.locator('.sessions button.session', { hasText: 'My cat is called Tom' }).click()
    await page.locator('.answer', { hasText: 'Noted' }).waitFor()
    fake.enqueue({ text: 'Tom.' })
    await page.fill('#chat-input', 'What is my cat called?')
    await page.keyboard.press('Enter')
    await page.locator('.answer', { hasText: 'Tom.' }).last().waitFor()
    const sent = fake.completions.at(-1)?.body.messages.map((m: { content: string }) => m.content)
    t.ok(sent.includes('My cat is called Tom') && sent.includes('Noted: your cat is Tom.'), 'the server had the earlier turn in the model call')
  })

  t.test('another browser (no localStorage) lists the server\'s sessions and reopens them with thinking and tool calls; forgetting one deletes it on the server', async t => {
    const { page, context, errors } = await openPage(t, browser, `${s.url}/#/chat`)
    t.same(await context.storageState().then(st => st.origins.flatMap(o => o.localStorage)), [], 'a browser with nothing stored')
    const listed = (await s.json('/api/chat/sessions')).body.sessions as Array<{ id: string, title: string }>
    const items = page.locator('.sessions li[data-session]')
    await items.first().waitFor()
    t.same(await items.evaluateAll(els => els.map(e => e.getAttribute('data-session'))), listed.map(x => x.id), 'the server\'s list, newest first')
    // The continued cat session is the newest; its four turns come from the server.
    await page.locator('.sessions button.session', { hasText: 'My cat is called Tom' }).click()
    await page.locator('.answer', { hasText: 'Tom.' }).filter({ hasNotText: 'Noted' }).waitFor()
    t.same(await page.locator('.msg.user .bubble').allTextContents(), ['My cat is called Tom', 'What is my cat called?'])
    t.same(await page.locator('.msg.assistant .answer').allTextContents(), ['Noted: your cat is Tom.', 'Tom.'])
    // The tool session: the call, its arguments and its result, then the answer.
    await page.locator('.sessions button.session', { hasText: 'Call the echo tool' }).click()
    await page.locator('.tool-result').waitFor()
    t.equal(await page.locator('details.tool summary code').textContent(), 'slow_echo')
    t.equal(await page.locator('.tool-result').textContent(), 'pong from the tool')
    t.equal(await page.locator('.msg.assistant .answer').textContent(), 'The tool said pong.')
    // The thinking session: folded thinking from the server's copy.
    await page.locator('.sessions button.session', { hasText: 'What is six times seven?' }).click()
    await page.locator('details.thinking').waitFor()
    t.equal((await page.locator('details.thinking pre').textContent())?.trim(), 'Six times seven.')
    t.equal(await page.locator('details.thinking').getAttribute('open'), null, 'folded')
    for (const size of Object.values(WIDTHS)) { await page.setViewportSize(size); await shot(page, 'chat-reopened') }
    // Forget it: gone from the server's list and from the page.
    const id = listed.find(x => x.title === 'What is six times seven?')!.id
    await page.getByRole('button', { name: 'Forget What is six times seven?' }).click()
    await page.locator(`.sessions li[data-session="${id}"]`).waitFor({ state: 'detached' })
    t.equal((await s.json(`/api/chat/sessions/${id}`)).status, 404, 'deleted on the server')
    t.equal(await page.locator('.msg').count(), 0, 'the open session was the one forgotten: a new chat shows')
    t.same(errors, [])
  })

  t.test('a failure shows the server\'s message', async t => {
    const { page } = await openPage(t, browser, `${s.url}/#/chat`)
    fake.enqueue({ status: 401, message: 'Incorrect API key provided.', type: 'invalid_request_error' })
    await page.fill('#chat-input', 'Hello?')
    await page.keyboard.press('Enter')
    const alert = page.locator('.msg.assistant [role=alert]')
    await alert.waitFor()
    t.match(await alert.textContent(), /OPENAI_API_KEY/, 'the provider error names the variable to fix')
    t.match(await alert.textContent(), /AGENT_ERR_PROVIDER_AUTH/)
    // Input the server refuses before streaming (JSON 4xx) is shown too, and the text kept.
    await page.fill('#chat-input', 'x'.repeat(10_001))
    await page.keyboard.press('Enter')
    const refused = page.locator('.conversation > [role=alert]')
    await refused.waitFor()
    t.match(await refused.textContent(), /10000/, 'the 413 says the limit')
    t.equal((await page.inputValue('#chat-input')).length, 10_001, 'the message is kept to edit')
  })

  t.test('keyboard only: Tab reaches the composer and Enter sends', async t => {
    const { page } = await openPage(t, browser, `${s.url}/#/chat`)
    fake.enqueue({ text: 'Hi there.' })
    await page.locator('#chat-input').focus()
    await page.keyboard.type('Hello')
    await page.keyboard.press('Enter')
    await page.locator('.answer', { hasText: 'Hi there.' }).waitFor()
    await page.keyboard.press('Shift+Tab')
    const focused = await page.evaluate('document.activeElement?.tagName')
    t.ok(focused !== 'BODY', 'focus moves between controls')
  })
})
