// The agent and translation pages in Debian's Chromium: a run's plan and steps show while
// it works, its result comes with the trace, Cancel stops it (and its model call); a text's
// language is detected offline, and a translation whose model cannot be fetched shows the
// server's reason clearly.
import t from 'tap'
import { startConsoleServer } from './server.ts'
import { launch, openPage, shot, WIDTHS } from './browser.ts'
import { repoPlugin } from '../helpers/workspace.ts'
import { gate } from '../helpers/gate.ts'
import { pollUntil } from '../helpers/poll.ts'
import { refusedHub } from '../fakes/hf-hubs.ts'

const PLAN = '{"steps":[{"type":"action","description":"echo the word"}]}'

t.test('console agent and translation pages', async t => {
  const hub = await refusedHub()
  const { s, fake } = await startConsoleServer(t, {
    memory: false,
    env: { HF_ENDPOINT: hub },
    extra: [
      { name: 'react', module: repoPlugin('strategy-react') },
      { name: 'cot', module: repoPlugin('strategy-cot') },
      { name: 'agent', module: repoPlugin('agent') },
      { name: 'language-detect', module: repoPlugin('language-detect') },
      { name: 'translation', module: repoPlugin('translation') },
    ],
  })
  const browser = await launch(t)

  t.test('a run shows its plan and steps live, then the result with its trace', async t => {
    const { page, errors } = await openPage(t, browser, `${s.url}/#/agent`)
    const last = gate()
    t.teardown(() => { last.open() })
    fake.enqueue(
      { text: PLAN },
      { text: 'Thought: echo it', tool_calls: [{ id: 'c1', name: 'slow_echo', arguments: { text: 'pong', ms: 0 } }] },
      { text: 'Final Answer: The tool said **pong**.', gate: last.promise },
    )
    await page.locator('select[name=strategy] option', { hasText: 'react' }).waitFor({ state: 'attached' })
    await page.selectOption('select[name=strategy]', 'react')
    await page.fill('#agent-task', 'Echo pong with the tool')
    await page.getByRole('button', { name: 'Run' }).click()
    await page.locator('.plan li', { hasText: 'echo the word' }).waitFor()
    // The tool's result is on the page while the last model call is still held.
    await page.locator('.steps [data-type=tool-result] pre', { hasText: 'pong' }).waitFor()
    t.equal(await page.locator('section.result').count(), 0, 'no result yet: the steps arrived live')
    t.ok(await page.getByRole('button', { name: 'Cancel' }).isVisible(), 'running')
    last.open()
    const result = page.locator('section.result')
    await result.waitFor()
    t.equal(await result.locator('.answer strong').textContent(), 'pong', 'the answer as Markdown')
    t.match(await result.locator('.badge').textContent(), 'complete')
    t.match(await result.locator('details.trace summary').textContent(), /Trace \(\d+ entries\)/)
    for (const size of Object.values(WIDTHS)) { await page.setViewportSize(size); await shot(page, 'agent') }
    t.same(errors, [])
  })

  t.test('Cancel stops the run and its model call', async t => {
    const { page } = await openPage(t, browser, `${s.url}/#/agent`)
    const before = fake.completions.length
    fake.enqueue({ text: PLAN }, { hang: true })
    await page.fill('#agent-task', 'Think forever')
    await page.getByRole('button', { name: 'Run' }).click()
    await page.locator('.plan li').waitFor()
    await pollUntil(() => fake.completions.length, n => n >= before + 2)
    await page.getByRole('button', { name: 'Cancel' }).click()
    await page.locator('.cancelled').waitFor()
    const hung = await pollUntil(() => fake.completions[before + 1], r => r?.aborted === true)
    t.equal(hung?.aborted, true, 'the model call was cancelled upstream')
    t.ok(await page.getByRole('button', { name: 'Run' }).isVisible(), 'ready for the next run')
  })

  t.test('detection works offline; a translation without its model shows why, clearly', async t => {
    const { page } = await openPage(t, browser, `${s.url}/#/translate`)
    await page.fill('#tr-text', 'Bonjour tout le monde, comment allez-vous aujourd\'hui ?')
    await page.getByRole('button', { name: 'Detect language' }).click()
    const detected = page.locator('.detected')
    await detected.waitFor()
    t.match(await detected.textContent(), /French/)
    await page.selectOption('select[name=target]', 'deu_Latn')
    await page.getByRole('button', { name: 'Translate' }).click()
    const alert = page.locator('[role=alert]', { hasText: 'Translation failed' })
    await alert.waitFor()
    t.match(await alert.textContent(), /could not be fetched/, 'the server\'s reason')
    t.match(await alert.textContent(), /TRANSLATION_MODEL_DIR/, 'and what to do')
    t.match(await alert.textContent(), /AGENT_ERR_TRANSLATION_UNAVAILABLE/)
    for (const size of Object.values(WIDTHS)) { await page.setViewportSize(size); await shot(page, 'translate') }
  })
})
