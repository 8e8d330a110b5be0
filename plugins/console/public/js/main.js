// The console's shell: navigation between pages (hash routes, so reloading keeps the
// page and the server needs only `/`), and the API-key dialog.
import { render } from 'preact'
import { useState, useEffect, useRef } from 'preact/hooks'
import { html } from './ui.js'
import { apiKey, onKeyNeeded } from './api.js'
import { ChatPage } from './pages/chat.js'
import { MemoryPage } from './pages/memory.js'
import { ToolsPage } from './pages/tools.js'
import { JobsPage } from './pages/jobs.js'
import { PromptsPage } from './pages/prompts.js'
import { SystemPage } from './pages/system.js'
import { SettingsPage } from './pages/settings.js'
import { AgentPage } from './pages/agent.js'
import { TranslatePage } from './pages/translate.js'

const PAGES = [
  { id: 'chat', label: 'Chat', page: ChatPage },
  { id: 'agent', label: 'Agent', page: AgentPage },
  { id: 'translate', label: 'Translate', page: TranslatePage },
  { id: 'memory', label: 'Memory', page: MemoryPage },
  { id: 'tools', label: 'Tools', page: ToolsPage },
  { id: 'jobs', label: 'Jobs', page: JobsPage },
  { id: 'prompts', label: 'Prompts', page: PromptsPage },
  { id: 'system', label: 'System', page: SystemPage },
  { id: 'settings', label: 'Settings', page: SettingsPage },
]

const current = () => {
  const id = location.hash.replace(/^#\/?/, '').split('/')[0]
  return PAGES.find(p => p.id === id) ?? PAGES[0]
}

function KeyDialog ({ ask }) {
  const ref = useRef()
  const [value, setValue] = useState('')
  useEffect(() => { if (ask) { setValue(''); ref.current?.showModal() } else ref.current?.close() }, [ask])
  const submit = (e) => { e.preventDefault(); apiKey.set(value.trim()); ask.resolve(value.trim() !== '') }
  return html`<dialog ref=${ref} class="key-dialog" aria-labelledby="key-title" onCancel=${() => ask?.resolve(false)}>
    <form onSubmit=${submit}>
      <h2 id="key-title">API key</h2>
      <p>${ask?.message ?? 'This server requires an API key.'}</p>
      <p class="muted">It is kept for this browser tab only (sessionStorage).</p>
      <label for="api-key">X-API-Key</label>
      <input id="api-key" type="password" autocomplete="current-password" value=${value} onInput=${e => setValue(e.target.value)} required />
      <div class="row"><button type="submit">Use this key</button></div>
    </form>
  </dialog>`
}

function App () {
  const [page, setPage] = useState(current)
  const [ask, setAsk] = useState(null)
  useEffect(() => {
    const onHash = () => setPage(current())
    addEventListener('hashchange', onHash)
    onKeyNeeded((message) => new Promise(resolve => setAsk({ message, resolve: (ok) => { setAsk(null); resolve(ok) } })))
    return () => removeEventListener('hashchange', onHash)
  }, [])
  useEffect(() => { document.title = `${page.label} · agentd` }, [page])
  const Page = page.page
  return html`
    <a class="skip" href="#main">Skip to content</a>
    <header class="top">
      <span class="brand">agentd</span>
      <nav aria-label="pages">
        ${PAGES.map(p => html`<a href=${`#/${p.id}`} aria-current=${p.id === page.id ? 'page' : undefined}>${p.label}</a>`)}
      </nav>
    </header>
    <main id="main" tabindex="-1" data-page=${page.id}><${Page} /></main>
    <${KeyDialog} ask=${ask} />`
}

const root = document.getElementById('app')
root.textContent = '' // the boot message
render(html`<${App} />`, root)
