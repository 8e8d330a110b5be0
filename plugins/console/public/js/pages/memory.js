// Memory: channels with their counts, entities (search, type, pages) with their graph,
// facts with confidence, temporal context and supersession chain, strategies, recall
// tried from a search box, the memory and recall settings, and export/import (its own
// file, memory-transfer.js, loaded when its tab opens: not part of the first load).
import { useState, useEffect } from 'preact/hooks'
import { html, useApi, useAction, Loaded, ErrorBox, Pager, Tabs, SettingsForm, Badge, fmtDate, fmtMs, pct } from '../ui.js'
import { api } from '../api.js'
import { EntityGraph } from '../graph.js'

const TABS = [
  { id: 'channels', label: 'Channels' }, { id: 'entities', label: 'Entities' }, { id: 'facts', label: 'Facts' },
  { id: 'strategies', label: 'Strategies' }, { id: 'recall', label: 'Recall' }, { id: 'settings', label: 'Settings' },
  { id: 'transfer', label: 'Export / import' },
]
const COUNTS = ['turns', 'entities', 'facts', 'strategies', 'goals']
const qs = (o) => new URLSearchParams(Object.entries(o).filter(([, v]) => v !== '' && v !== undefined && v !== false)).toString()

function ChannelSelect ({ value, onChange, all = true, id }) {
  const ch = useApi('/api/memory/channels')
  return html`<select id=${id} value=${value} onChange=${e => onChange(e.target.value)}>
    ${all ? html`<option value="_all">every channel</option>` : null}
    ${(ch.data?.channels ?? []).map(c => html`<option value=${c.name}>${c.name}</option>`)}
  </select>`
}

function Channels () {
  const state = useApi('/api/memory/channels')
  const [name, setName] = useState('')
  const act = useAction()
  const create = async (e) => {
    e.preventDefault()
    if (await act.run(() => api('/api/memory/channels', { method: 'POST', body: { name: name.trim() } }))) { setName(''); state.reload() }
  }
  const remove = async (c) => {
    const total = COUNTS.reduce((n, k) => n + (c.item_counts?.[k] ?? 0), 0)
    if (!confirm(`Delete channel "${c.name}" and its ${total} items in every store? This cannot be undone.`)) return
    if (await act.run(() => api(`/api/memory/channels/${encodeURIComponent(c.name)}`, { method: 'DELETE' }))) state.reload()
  }
  return html`<div>
    <form class="row" onSubmit=${create} aria-label="create a channel">
      <label for="new-channel">New channel</label>
      <input id="new-channel" value=${name} onInput=${e => setName(e.target.value)} placeholder="letters, digits, - and _" required />
      <button type="submit" disabled=${act.busy}>Create</button>
    </form>
    <${ErrorBox} error=${act.error} />
    ${act.result?.message ? html`<p class="ok" role="status">${act.result.message}</p>` : null}
    <${Loaded} state=${state} what="Channels" plugin="memory">${d => html`
      <div class="table-wrap"><table class="channels">
        <thead><tr><th>Channel</th>${COUNTS.map(k => html`<th class="num">${k}</th>`)}<th>Created</th><th></th></tr></thead>
        <tbody>${d.channels.map(c => html`<tr data-channel=${c.name}>
          <td><strong>${c.name}</strong>${c.is_default ? html` <span class="tag">default</span>` : null}</td>
          ${COUNTS.map(k => html`<td class="num">${c.item_counts?.[k] ?? 0}</td>`)}
          <td>${fmtDate(c.created_at)}</td>
          <td>${c.name === '_global' ? null : html`<button type="button" class="danger" onClick=${() => remove(c)} aria-label=${`Delete channel ${c.name}`}>Delete</button>`}</td>
        </tr>`)}</tbody>
      </table></div>`}<//>
  </div>`
}

function GraphPanel ({ id, onOpen, onClose }) {
  const [depth, setDepth] = useState(2)
  const state = useApi(`/api/memory/entities/${encodeURIComponent(id)}/graph?depth=${depth}`)
  return html`<section class="panel graph-panel" aria-label="entity graph">
    <div class="row">
      <h3>${state.data?.entity?.name ?? 'Entity'} <small class="muted">${state.data?.entity?.type ?? ''}</small></h3>
      <label>Depth <select value=${depth} onChange=${e => setDepth(Number(e.target.value))}>${[1, 2, 3].map(d => html`<option value=${d}>${d}</option>`)}</select></label>
      <button type="button" onClick=${onClose}>Close</button>
    </div>
    <${Loaded} state=${state} what="Entity graph" plugin="memory">${g => html`
      <${EntityGraph} graph=${g} onOpen=${onOpen} />
      <p class="muted">${g.relationships.length} relationships within ${g.depth} hops.</p>
      ${g.facts.length > 0 ? html`<h4>Facts</h4><ul>${g.facts.map(f => html`<li>${f.claim} <span class="muted">${pct(f.confidence)}</span></li>`)}</ul>` : null}`}<//>
  </section>`
}

function Entities () {
  const [q, setQ] = useState({ search: '', type: '', channel: '_all', page: 1 })
  const [open, setOpen] = useState(null)
  const state = useApi(`/api/memory/entities?${qs({ ...q, limit: 20 })}`)
  const set = (k) => (e) => setQ({ ...q, [k]: e.target.value, page: 1 })
  const types = [...new Set((state.data?.entities ?? []).map(e => e.type))]
  return html`<div class="split">
    <div>
      <form class="filters" onSubmit=${e => e.preventDefault()} aria-label="filter entities">
        <label>Search <input type="search" value=${q.search} onInput=${set('search')} placeholder="name" /></label>
        <label>Type <input list="entity-types" value=${q.type} onInput=${set('type')} placeholder="any" /></label>
        <datalist id="entity-types">${types.map(t => html`<option value=${t} />`)}</datalist>
        <label>Channel <${ChannelSelect} value=${q.channel} onChange=${v => setQ({ ...q, channel: v, page: 1 })} /></label>
      </form>
      <${Loaded} state=${state} what="Entities" plugin="memory">${d => html`
        <div class="table-wrap"><table>
          <thead><tr><th>Name</th><th>Type</th><th>Channel</th><th class="num">Salience</th><th></th></tr></thead>
          <tbody>${d.entities.map(e => html`<tr>
            <td>${e.name}${e.aliases?.length ? html` <small class="muted">(${e.aliases.join(', ')})</small>` : null}</td>
            <td>${e.type}</td><td>${e.channel}</td><td class="num">${pct(e.salience)}</td>
            <td><button type="button" onClick=${() => setOpen(e.id)} aria-label=${`Graph of ${e.name}`}>Graph</button></td>
          </tr>`)}</tbody>
        </table></div>
        ${d.entities.length === 0 ? html`<p class="muted">No entities match.</p>` : null}
        <${Pager} page=${d.page} limit=${d.limit} total=${d.total} hasNext=${d.has_next} onPage=${p => setQ({ ...q, page: p })} />`}<//>
    </div>
    ${open ? html`<${GraphPanel} id=${open} onOpen=${setOpen} onClose=${() => setOpen(null)} />` : null}
  </div>`
}

/** The facts before and after `fact`, following supersedes_id back and superseded_by_id on. */
function Chain ({ fact }) {
  const state = useApi(`/api/memory/facts?${qs({ channel: fact.channel ?? '_all', include_superseded: true, limit: 100 })}`)
  return html`<${Loaded} state=${state} what="Fact history" plugin="memory">${d => {
    const byId = new Map(d.facts.map(f => [f.id, f]))
    byId.set(fact.id, { ...byId.get(fact.id), ...fact })
    let first = byId.get(fact.id)
    const seen = new Set([first.id])
    while (first.supersedes_id && byId.has(first.supersedes_id) && !seen.has(first.supersedes_id)) { first = byId.get(first.supersedes_id); seen.add(first.id) }
    const chain = [first]
    while (chain.at(-1).superseded_by_id && byId.has(chain.at(-1).superseded_by_id) && chain.length < 50) chain.push(byId.get(chain.at(-1).superseded_by_id))
    return html`<ol class="chain" aria-label="supersession chain">${chain.map(f => html`<li class=${f.superseded_at ? 'superseded' : 'current'}>
      ${f.claim} <span class="muted">${pct(f.confidence)} · ${f.superseded_at ? `superseded ${fmtDate(f.superseded_at)}` : 'current'}</span>
    </li>`)}</ol>`
  }}<//>`
}

function Facts () {
  const [q, setQ] = useState({ search: '', channel: '_all', min_confidence: '', include_superseded: false, page: 1 })
  const [open, setOpen] = useState(null)
  const state = useApi(`/api/memory/facts?${qs({ ...q, limit: 20 })}`)
  const set = (k) => (e) => setQ({ ...q, [k]: e.target.type === 'checkbox' ? e.target.checked : e.target.value, page: 1 })
  return html`<div>
    <form class="filters" onSubmit=${e => e.preventDefault()} aria-label="filter facts">
      <label>Search <input type="search" value=${q.search} onInput=${set('search')} placeholder="claim" /></label>
      <label>Channel <${ChannelSelect} value=${q.channel} onChange=${v => setQ({ ...q, channel: v, page: 1 })} /></label>
      <label>Min. confidence <input type="number" min="0" max="1" step="0.05" value=${q.min_confidence} onInput=${set('min_confidence')} /></label>
      <label class="check"><input type="checkbox" checked=${q.include_superseded} onChange=${set('include_superseded')} /> superseded too</label>
    </form>
    <${Loaded} state=${state} what="Facts" plugin="memory">${d => html`
      <div class="table-wrap"><table class="facts">
        <thead><tr><th>Claim</th><th class="num">Confidence</th><th>When</th><th>Source</th><th>Channel</th><th></th></tr></thead>
        <tbody>${d.facts.map(f => html`<tr class=${f.superseded_at ? 'superseded' : ''}>
          <td>${f.claim}${f.superseded_at ? html` <span class="tag">superseded</span>` : null}${f.flagged_for_review ? html` <span class="tag warn">review</span>` : null}
            ${open === f.id ? html`<${Chain} fact=${f} />` : null}</td>
          <td class="num"><meter min="0" max="1" value=${f.confidence} aria-label="confidence"></meter> ${pct(f.confidence)}</td>
          <td>${f.temporal_context ?? '—'}</td><td>${f.source}</td><td>${f.channel}</td>
          <td>${f.supersedes_id || f.superseded_by_id ? html`<button type="button" aria-expanded=${open === f.id} onClick=${() => setOpen(open === f.id ? null : f.id)}>History</button>` : null}</td>
        </tr>`)}</tbody>
      </table></div>
      ${d.facts.length === 0 ? html`<p class="muted">No facts match.</p>` : null}
      <${Pager} page=${d.page} limit=${d.limit} total=${d.total} hasNext=${d.has_next} onPage=${p => setQ({ ...q, page: p })} />`}<//>
  </div>`
}

function Strategies () {
  const [q, setQ] = useState({ search: '', channel: '_all', page: 1 })
  const state = useApi(`/api/memory/strategies?${qs({ ...q, limit: 20 })}`)
  return html`<div>
    <form class="filters" onSubmit=${e => e.preventDefault()} aria-label="filter strategies">
      <label>Channel <${ChannelSelect} value=${q.channel} onChange=${v => setQ({ ...q, channel: v, page: 1 })} /></label>
    </form>
    <${Loaded} state=${state} what="Strategies" plugin="memory">${d => html`
      <div class="table-wrap"><table>
        <thead><tr><th>Strategy</th><th>When</th><th>Tools</th><th class="num">Worked</th><th class="num">Failed</th><th>Last used</th></tr></thead>
        <tbody>${d.strategies.map(s => html`<tr>
          <td>${s.description}</td><td><code>${s.context_pattern}</code></td><td>${(s.tool_sequence ?? []).join(' → ') || '—'}</td>
          <td class="num">${s.success_count ?? 0}</td><td class="num">${s.failure_count ?? 0}</td><td>${fmtDate(s.last_used)}</td>
        </tr>`)}</tbody>
      </table></div>
      ${d.strategies.length === 0 ? html`<p class="muted">No strategies learned yet.</p>` : null}
      <${Pager} page=${d.page} limit=${d.limit} total=${d.total} hasNext=${d.has_next} onPage=${p => setQ({ ...q, page: p })} />`}<//>
  </div>`
}

const PARTS = [['relevant_turns', 'Turns', x => `${x.role ?? ''}: ${x.content}`], ['facts', 'Facts', x => x.claim], ['entities', 'Entities', x => `${x.name} (${x.type})`], ['strategies', 'Strategies', x => x.description], ['active_goals', 'Goals', x => x.description]]
const foundBy = (x) => [x.found_by, x.techniques, x.technique].flat().filter(Boolean)

function Recall () {
  const [query, setQuery] = useState('')
  const [channel, setChannel] = useState('_default')
  const [topK, setTopK] = useState(10)
  const act = useAction()
  const go = (e) => { e.preventDefault(); act.run(() => api('/api/memory/recall', { method: 'POST', body: { query, top_k: Number(topK), channel } })) }
  const r = act.result
  return html`<div>
    <form class="filters" onSubmit=${go} role="search" aria-label="try recall">
      <label class="grow">Query <input type="search" value=${query} onInput=${e => setQuery(e.target.value)} required placeholder="what would the chat recall for…" /></label>
      <label>Channel <${ChannelSelect} all=${false} value=${channel} onChange=${setChannel} /></label>
      <label>Top k <input type="number" min="1" max="50" value=${topK} onInput=${e => setTopK(e.target.value)} /></label>
      <button type="submit" disabled=${act.busy}>Recall</button>
    </form>
    <${ErrorBox} error=${act.error} what="Recall failed" />
    ${r ? html`<div class="recall">
      <p>Techniques that answered: ${(r.techniques ?? []).map(t => html`<span class="tag">${t}</span> `)}
        ${r.timings_ms ? html`<span class="muted">total ${fmtMs(r.timings_ms.total)}</span>` : null}</p>
      ${r.warning ? html`<p class="notice">${r.warning}</p>` : null}
      ${PARTS.map(([k, label, text]) => (r[k]?.length ?? 0) === 0 ? null : html`<h4>${label}</h4><ul class="found">${r[k].map(x => html`<li>
        ${text(x)} <span class="muted">${typeof x.score === 'number' ? `score ${x.score.toFixed(3)}` : ''}</span>
        ${(foundBy(x).length > 0 ? foundBy(x) : r.techniques?.length === 1 ? r.techniques : []).map(t => html` <span class="tag">${t}</span>`)}
      </li>`)}</ul>`)}
      ${r.timings_ms ? html`<details><summary>Timings</summary><table>${Object.entries(r.timings_ms).map(([k, v]) => html`<tr><td>${k}</td><td class="num">${fmtMs(v)}</td></tr>`)}</table></details>` : null}
      ${r.context ? html`<details><summary>Context the prompt would get</summary><pre>${r.context}</pre></details>` : null}
    </div>` : null}
  </div>`
}

function Settings () {
  const act = useAction()
  return html`<div class="settings-page">
    <section><h3>Memory settings</h3><${SettingsForm} path="/api/memory/settings" what="Memory settings" plugin="memory consolidation" /></section>
    <section><h3>Recall settings</h3><${SettingsForm} path="/api/memory/recall-settings" what="Recall settings" plugin="memory recall" /></section>
    <section><h3>Consolidation</h3>
      <button type="button" disabled=${act.busy} onClick=${() => act.run(() => api('/api/memory/consolidate', { method: 'POST', body: {} }))}>Consolidate now</button>
      <${ErrorBox} error=${act.error} what="Consolidation" />
      ${act.result ? html`<p class="ok" role="status">Done in ${fmtMs(act.result.duration_ms)}</p>
        <ul>${Object.entries(act.result.results ?? {}).map(([job, m]) => html`<li><strong>${job}</strong> ${m?.error ? html`<${Badge} status="error" /> ${m.error}` : html`<code>${JSON.stringify(m)}</code>`}</li>`)}</ul>` : null}
    </section>
  </div>`
}

let transfer
function Transfer () {
  const [m, setM] = useState(transfer)
  useEffect(() => { if (m === undefined) import('./memory-transfer.js').then(x => { transfer = x; setM(x) }) }, [])
  return m === undefined ? html`<p class="muted" role="status">Loading…</p>` : html`<${m.Transfer} />`
}

const BODY = { channels: Channels, entities: Entities, facts: Facts, strategies: Strategies, recall: Recall, settings: Settings, transfer: Transfer }

export function MemoryPage () {
  const [tab, setTab] = useState('channels')
  const Body = BODY[tab]
  return html`<div class="page">
    <h1>Memory</h1>
    <${Tabs} tabs=${TABS} current=${tab} onChange=${setTab} label="memory" />
    <div role="tabpanel" aria-labelledby=${`tab-${tab}`}><${Body} /></div>
  </div>`
}
