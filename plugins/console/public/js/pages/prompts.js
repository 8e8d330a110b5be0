// Prompts: the global prompt and the profiles, all editable. A profile's sections are
// edited as a list (add, remove, move up/down, enable/disable, change any field) and
// saved whole: the list order becomes `order` (10, 20, ...), so what the page shows is
// the order the system prompt is composed in. Every control is a native button, input
// or select with a label, so the page works from the keyboard; a moved section keeps
// the focus on its move button.
import { useState, useEffect, useRef } from 'preact/hooks'
import { html, useApi, useAction, Loaded, ErrorBox } from '../ui.js'
import { api } from '../api.js'

const TYPES = ['persona', 'task', 'format', 'constraints', 'examples', 'context', 'custom']
const ID_PATTERN = /^[A-Za-z0-9_.-]+$/

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

/** A section id not used in `sections`, from its name when that makes a valid one. */
function freshId (sections, name) {
  const base = (name ?? '').toLowerCase().replace(/[^a-z0-9_.-]+/g, '-').replace(/^-+|-+$/g, '') || 'section'
  const used = new Set(sections.map(s => s.id))
  if (!used.has(base)) return base
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`
}

/** One section in the editor. `key` is stable across moves so inputs keep their state. */
function SectionEditor ({ s, i, count, onChange, onMove, onRemove }) {
  const pre = `sec-${s.key}`
  return html`<li class=${`section-edit${s.enabled ? '' : ' off'}`} data-section=${s.id} data-key=${s.key}>
    <fieldset>
      <legend><span class="pos">${i + 1}.</span> ${s.name || s.id} <code class="muted">${s.id}</code></legend>
      <div class="row">
        <label for=${`${pre}-name`}>Name<input id=${`${pre}-name`} type="text" required value=${s.name} onInput=${e => onChange({ name: e.target.value })} /></label>
        <label for=${`${pre}-type`}>Type<select id=${`${pre}-type`} value=${s.type} onChange=${e => onChange({ type: e.target.value })}>
          ${TYPES.map(t => html`<option value=${t}>${t}</option>`)}
        </select></label>
        <label class="check"><input type="checkbox" checked=${s.enabled} onChange=${e => onChange({ enabled: e.target.checked })} /> enabled</label>
      </div>
      <label for=${`${pre}-content`}>Content</label>
      <textarea id=${`${pre}-content`} rows="4" value=${s.content} onInput=${e => onChange({ content: e.target.value })}></textarea>
      <div class="row">
        <button type="button" class="up" disabled=${i === 0} aria-label=${`Move ${s.name || s.id} up`} onClick=${() => onMove(-1, 'up')}>↑ Up</button>
        <button type="button" class="down" disabled=${i === count - 1} aria-label=${`Move ${s.name || s.id} down`} onClick=${() => onMove(1, 'down')}>↓ Down</button>
        <button type="button" class="danger" aria-label=${`Remove ${s.name || s.id}`} onClick=${onRemove}>Remove</button>
      </div>
    </fieldset>
  </li>`
}

let keys = 0
const withKeys = (sections) => [...sections].map((s, i) => ({ s, i }))
  .sort((a, b) => a.s.order - b.s.order || a.i - b.i)
  .map(({ s }) => ({ ...s, key: ++keys }))

function ProfileEditor ({ id, isDefault, onSaved, onDeleted }) {
  const state = useApi(`/api/prompts/profiles/${encodeURIComponent(id)}`)
  const act = useAction()
  const del = useAction()
  const [draft, setDraft] = useState(null)
  const [focus, setFocus] = useState(null)
  const [newName, setNewName] = useState('')
  const list = useRef(null)
  useEffect(() => {
    if (state.data) {
      const p = state.data.profile
      setDraft({ name: p.name, description: p.description, is_default: p.is_default, sections: withKeys(p.sections ?? []) })
    }
  }, [state.data])
  // After a move, the focus follows the section to its new place.
  useEffect(() => {
    if (focus === null) return
    const el = list.current?.querySelector(`[data-key="${focus.key}"] button.${focus.which}`)
    if (el && !el.disabled) el.focus()
    else list.current?.querySelector(`[data-key="${focus.key}"] button.${focus.which === 'up' ? 'down' : 'up'}`)?.focus()
    setFocus(null)
  }, [focus])

  if (!state.data || !draft) return html`<${Loaded} state=${state} what="Profile" plugin="prompts">${() => null}<//>`
  const sections = draft.sections
  const setSections = (next) => { act.clear(); setDraft({ ...draft, sections: next }) }
  const change = (i, patch) => setSections(sections.map((s, j) => j === i ? { ...s, ...patch } : s))
  const move = (i, d, which) => {
    const j = i + d
    if (j < 0 || j >= sections.length) return
    const next = [...sections]
    ;[next[i], next[j]] = [next[j], next[i]]
    setSections(next)
    setFocus({ key: next[j].key, which })
  }
  const remove = (i) => setSections(sections.filter((_, j) => j !== i))
  const add = (e) => {
    e.preventDefault()
    const name = newName.trim() || 'New section'
    setSections([...sections, { id: freshId(sections, name), name, type: 'custom', content: '', enabled: true, order: 0, key: ++keys }])
    setNewName('')
  }
  const save = async (e) => {
    e.preventDefault()
    const body = {
      name: draft.name,
      description: draft.description,
      sections: sections.map((s, i) => ({ id: s.id, name: s.name, type: s.type, content: s.content, enabled: s.enabled, order: (i + 1) * 10 })),
    }
    if (draft.is_default && !isDefault) body.is_default = true
    const r = await act.run(() => api(`/api/prompts/profiles/${encodeURIComponent(id)}/update`, { method: 'POST', body }))
    if (r) { state.reload(); onSaved() }
  }
  const remove_ = async () => {
    if (!window.confirm(`Delete the prompt profile "${id}"? Its sections go with it.`)) return
    if (await del.run(() => api(`/api/prompts/profiles/${encodeURIComponent(id)}`, { method: 'DELETE' }))) onDeleted()
  }
  const pre = `prof-${id}`
  return html`<form class="profile-edit" onSubmit=${save} aria-label=${`Edit profile ${id}`}>
    <div class="row">
      <label for=${`${pre}-name`}>Name<input id=${`${pre}-name`} type="text" required value=${draft.name} onInput=${e => setDraft({ ...draft, name: e.target.value })} /></label>
      <label for=${`${pre}-desc`} class="grow">Description<input id=${`${pre}-desc`} type="text" value=${draft.description} onInput=${e => setDraft({ ...draft, description: e.target.value })} /></label>
      <label class="check"><input type="checkbox" checked=${draft.is_default} disabled=${isDefault} onChange=${e => setDraft({ ...draft, is_default: e.target.checked })} /> default profile</label>
    </div>
    <h3>Sections <span class="muted">(in the order they are composed)</span></h3>
    ${sections.length === 0 ? html`<p class="muted">No sections.</p>` : null}
    <ol class="section-list" ref=${list}>
      ${sections.map((s, i) => html`<${SectionEditor} key=${s.key} s=${s} i=${i} count=${sections.length}
        onChange=${p => change(i, p)} onMove=${(d, which) => move(i, d, which)} onRemove=${() => remove(i)} />`)}
    </ol>
    <div class="row add-section">
      <label for=${`${pre}-new`}>New section name<input id=${`${pre}-new`} type="text" value=${newName} onInput=${e => setNewName(e.target.value)}
        onKeyDown=${e => { if (e.key === 'Enter') add(e) }} /></label>
      <button type="button" onClick=${add}>+ Add section</button>
    </div>
    <div class="row">
      <button type="submit" class="primary" disabled=${act.busy}>Save profile</button>
      <button type="button" class="danger" disabled=${isDefault || del.busy} title=${isDefault ? 'The default profile cannot be deleted; make another one the default first.' : ''} onClick=${remove_}>Delete profile</button>
      ${act.result ? html`<span class="ok" role="status">Saved.</span>` : null}
    </div>
    <${ErrorBox} error=${act.error} what="Not saved" />
    <${ErrorBox} error=${del.error} what="Not deleted" />
    <details><summary>Composed system prompt (as saved)</summary><pre>${state.data.composed_prompt}</pre></details>
  </form>`
}

function NewProfile ({ onCreated }) {
  const act = useAction()
  const [id, setId] = useState('')
  const [name, setName] = useState('')
  const bad = id !== '' && !ID_PATTERN.test(id)
  const create = async (e) => {
    e.preventDefault()
    const r = await act.run(() => api('/api/prompts/profiles', { method: 'POST', body: { id, name: name || id } }))
    if (r) { setId(''); setName(''); onCreated(r.profile.id) }
  }
  return html`<form class="row new-profile" onSubmit=${create} aria-label="new profile">
    <label for="new-profile-id">Id<input id="new-profile-id" type="text" required value=${id} aria-invalid=${bad} onInput=${e => setId(e.target.value)} /></label>
    <label for="new-profile-name">Name<input id="new-profile-name" type="text" value=${name} onInput=${e => setName(e.target.value)} /></label>
    <button type="submit" disabled=${act.busy || id === '' || bad}>Create profile</button>
    ${bad ? html`<small class="error-text">Letters, digits, <code>_ . -</code> only.</small>` : null}
    <${ErrorBox} error=${act.error} what="Not created" />
  </form>`
}

function Profiles () {
  const state = useApi('/api/prompts/profiles')
  const [open, setOpen] = useState(null)
  return html`<section><h2>Profiles</h2>
    <p class="muted">Saved to <code>data/system_prompts.yaml</code>; edits to that file apply live too.</p>
    <${Loaded} state=${state} what="Profiles" plugin="prompts">${d => html`<ul class="profiles">${d.profiles.map(p => html`<li class="card" data-profile=${p.id}>
      <div class="row"><strong>${p.name ?? p.id}</strong> <code class="muted">${p.id}</code>${p.is_default ? html` <span class="tag">default</span>` : null}<span class="muted">${p.enabled_sections}/${p.sections_count} sections on</span></div>
      ${p.description ? html`<p>${p.description}</p>` : null}
      <button type="button" class="link" aria-expanded=${open === p.id} onClick=${() => setOpen(open === p.id ? null : p.id)}>${open === p.id ? 'Close editor' : `Edit ${p.name ?? p.id}`}</button>
      ${open === p.id ? html`<${ProfileEditor} id=${p.id} isDefault=${p.is_default} onSaved=${state.reload} onDeleted=${() => { setOpen(null); state.reload() }} />` : null}
    </li>`)}</ul>
    <h3>New profile</h3>
    <${NewProfile} onCreated=${(id) => { state.reload(); setOpen(id) }} />`}<//>
  </section>`
}

export function PromptsPage () {
  return html`<div class="page"><h1>Prompts</h1><${GlobalPrompt} /><${Profiles} /></div>`
}
