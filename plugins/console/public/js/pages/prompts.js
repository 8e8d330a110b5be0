// Prompts: the global prompt (editable), the profiles with their sections, and the
// system prompt a profile composes to.
import { useState, useEffect } from 'preact/hooks'
import { html, useApi, useAction, Loaded, ErrorBox } from '../ui.js'
import { api } from '../api.js'

function GlobalPrompt () {
  const state = useApi('/api/prompts/global')
  const act = useAction()
  const [draft, setDraft] = useState(null)
  useEffect(() => { if (state.data) setDraft(state.data.global_prompt) }, [state.data])
  const save = async (e) => {
    e.preventDefault()
    if (await act.run(() => api('/api/prompts/global/update', { method: 'POST', body: { content: draft.content, enabled: draft.enabled } }))) state.reload()
  }
  return html`<section><h2>Global prompt</h2>
    <${Loaded} state=${state} what="Global prompt" plugin="prompts">${() => draft && html`
      <form onSubmit=${save}>
        <label for="global-prompt" class="sr-only">Global prompt</label>
        <textarea id="global-prompt" rows="6" value=${draft.content} onInput=${e => setDraft({ ...draft, content: e.target.value })}></textarea>
        <div class="row">
          <label class="check"><input type="checkbox" checked=${draft.enabled} onChange=${e => setDraft({ ...draft, enabled: e.target.checked })} /> enabled</label>
          <button type="submit" class="primary" disabled=${act.busy}>Save global prompt</button>
          ${act.result ? html`<span class="ok" role="status">Saved.</span>` : null}
        </div>
        <${ErrorBox} error=${act.error} what="Not saved" />
      </form>`}<//>
  </section>`
}

function Profile ({ id }) {
  const state = useApi(`/api/prompts/profiles/${encodeURIComponent(id)}`)
  return html`<${Loaded} state=${state} what="Profile" plugin="prompts">${d => html`
    <ol class="sections">${(d.profile.sections ?? []).map(s => html`<li class=${s.enabled ? '' : 'off'}>
      <strong>${s.name}</strong> <span class="tag">${s.type}</span>${s.enabled ? null : html` <span class="tag">off</span>`}<pre>${s.content}</pre>
    </li>`)}</ol>
    <details><summary>Composed system prompt</summary><pre>${d.composed_prompt}</pre></details>`}<//>`
}

function Profiles () {
  const state = useApi('/api/prompts/profiles')
  const [open, setOpen] = useState(null)
  return html`<section><h2>Profiles</h2>
    <p class="muted">Profiles live in <code>data/system_prompts.yaml</code>; edits to that file apply live.</p>
    <${Loaded} state=${state} what="Profiles" plugin="prompts">${d => html`<ul class="cards">${d.profiles.map(p => html`<li class="card">
      <div class="row"><strong>${p.name ?? p.id}</strong>${p.is_default ? html` <span class="tag">default</span>` : null}<span class="muted">${p.enabled_sections}/${p.sections_count} sections on</span></div>
      <p>${p.description}</p>
      <button type="button" class="link" aria-expanded=${open === p.id} onClick=${() => setOpen(open === p.id ? null : p.id)}>${open === p.id ? 'Hide sections' : 'Sections'}</button>
      ${open === p.id ? html`<${Profile} id=${p.id} />` : null}
    </li>`)}</ul>`}<//>
  </section>`
}

export function PromptsPage () {
  return html`<div class="page"><h1>Prompts</h1><${GlobalPrompt} /><${Profiles} /></div>`
}
