// Settings: provider keys and base URLs, the default model and memory on/off, through the
// config API (GET /api/config, POST /api/config/update). Keys are write-only: the server
// only says whether one is set and where from, so the page never holds a stored key; an
// empty key field means "leave it as it is". The server rebuilds its generation before it
// answers, so the next chat already uses what was saved.
import { useState } from 'preact/hooks'
import { html, useApi, useAction, Loaded, ErrorBox, Badge } from '../ui.js'
import { api } from '../api.js'

const keySource = (k) => !k?.set ? 'not set' : k.source === 'env' ? 'set (from the environment)' : k.source === 'config' ? 'set (in data/config.json)' : 'set'

/** One provider: its key (write-only), base URL and status. Saves only what was typed. */
function ProviderForm ({ id, p, onSaved }) {
  const [key, setKey] = useState('')
  const [url, setUrl] = useState(p.base_url ?? '')
  const act = useAction()
  const urlChanged = url.trim() !== (p.base_url ?? '')
  const save = async (e) => {
    e.preventDefault()
    const section = {}
    if (key.trim() !== '') section.api_key = key.trim()
    if (urlChanged) section.base_url = url.trim()
    const r = await act.run(() => api('/api/config/update', { method: 'POST', body: { providers: { [id]: section } } }))
    if (r) { setKey(''); onSaved(r.message) }
  }
  return html`<form class="card provider-form" data-provider=${id} onSubmit=${save} aria-label=${`provider ${id}`}>
    <div class="row"><strong>${id}</strong> ${p.status ? html`<${Badge} status=${p.status} />` : null}</div>
    <p class="muted key-state">API key: ${keySource(p.api_key)}</p>
    <label>New API key
      <input type="password" name="api_key" autocomplete="off" placeholder=${p.api_key?.set ? 'leave empty to keep the current key' : 'paste a key'} value=${key} onInput=${e => setKey(e.target.value)} />
    </label>
    <label>Base URL
      <input type="url" name="base_url" value=${url} placeholder="default address" onInput=${e => setUrl(e.target.value)} />
    </label>
    ${urlChanged && key.trim() === '' && p.api_key?.set ? html`<p class="muted">A stored key goes only to the address it was set with: give the key again to keep one for the new address.</p>` : null}
    <div class="row">
      <button type="submit" class="primary" disabled=${act.busy || (key.trim() === '' && !urlChanged)}>Save ${id}</button>
    </div>
    <${ErrorBox} error=${act.error} what="Not saved" />
  </form>`
}

/** The default model and memory on/off (preferences.*). */
function Preferences ({ prefs, onSaved }) {
  const models = useApi('/api/providers/models')
  const [model, setModel] = useState(prefs.default_model ?? '')
  const [memory, setMemory] = useState(prefs.enable_memory_by_default !== false)
  const act = useAction()
  const patch = {}
  if (model.trim() !== '' && model.trim() !== prefs.default_model) patch.default_model = model.trim()
  if (memory !== (prefs.enable_memory_by_default !== false)) patch.enable_memory_by_default = memory
  const save = async (e) => {
    e.preventDefault()
    const r = await act.run(() => api('/api/config/update', { method: 'POST', body: { preferences: patch } }))
    if (r) onSaved(r.message)
  }
  return html`<form class="card prefs" onSubmit=${save} aria-label="preferences">
    <label>Default model
      <input name="default_model" list="model-names" value=${model} onInput=${e => setModel(e.target.value)} />
    </label>
    <datalist id="model-names">${(models.data?.models ?? []).map(m => html`<option value=${`${m.provider}/${m.name}`} />`)}</datalist>
    <label class="check"><input type="checkbox" name="memory" checked=${memory} onChange=${e => setMemory(e.target.checked)} /> Use memory in chats by default</label>
    <div class="row">
      <button type="submit" class="primary" disabled=${act.busy || Object.keys(patch).length === 0}>Save preferences</button>
    </div>
    <${ErrorBox} error=${act.error} what="Not saved" />
  </form>`
}

export function SettingsPage () {
  const cfg = useApi('/api/config')
  // A save reloads; each form is keyed by what the server said, so it starts again from what is in effect.
  const [notice, setNotice] = useState('')
  const saved = (message) => { setNotice(message); cfg.reload() }
  return html`<div class="page"><h1>Settings</h1>
    <p class="muted">Saved to <code>data/config.json</code> and applied at once. Keys are never shown again: only whether one is set and where it comes from.</p>
    ${notice ? html`<p class="ok saved" role="status">${notice}</p>` : null}
    <${Loaded} state=${cfg} what="Settings" plugin="config-api">${d => html`
      <h2>Providers</h2>
      <div class="cards">${Object.entries(d.providers ?? {}).filter(([, p]) => p.loaded !== false).map(([id, p]) => html`<${ProviderForm} key=${JSON.stringify(p)} id=${id} p=${p} onSaved=${saved} />`)}</div>
      <h2>Preferences</h2>
      <${Preferences} key=${JSON.stringify(d.preferences ?? {})} prefs=${d.preferences ?? {}} onSaved=${saved} />`}<//>
  </div>`
}
