// Shared pieces of every page: the `html` template tag, data loading with the server's
// error message, status badges, a pager and a settings form built from what GET returns.
import { h } from 'preact'
import { useState, useEffect, useCallback, useRef } from 'preact/hooks'
import htm from 'htm'
import { api } from './api.js'

export const html = htm.bind(h)

/**
 * Loads `path` (re-loads when it changes or on `reload()`). An endpoint this server does
 * not have (404 for the route) is `missing`, so a page can say which plugin would add it.
 */
export function useApi (path) {
  const [state, setState] = useState({ loading: true })
  const [tick, setTick] = useState(0)
  useEffect(() => {
    if (path === null) { setState({ loading: false }); return }
    const ctl = new AbortController()
    setState(s => ({ ...s, loading: true }))
    api(path, { signal: ctl.signal }).then(
      data => setState({ loading: false, data }),
      err => { if (err.name !== 'AbortError') setState({ loading: false, error: err, missing: isMissingRoute(err) }) },
    )
    return () => ctl.abort()
  }, [path, tick])
  const reload = useCallback(() => setTick(t => t + 1), [])
  return { ...state, reload }
}

/** Runs an action, keeping its error (shown with ErrorBox) and a busy flag for the button. */
export function useAction () {
  const [state, setState] = useState({ busy: false })
  const run = useCallback(async (fn) => {
    setState({ busy: true })
    try {
      const result = await fn()
      setState({ busy: false, result })
      return result
    } catch (error) {
      setState({ busy: false, error })
      return undefined
    }
  }, [])
  return { ...state, run, clear: () => setState({ busy: false }) }
}

export function ErrorBox ({ error, what }) {
  if (!error) return null
  const details = Array.isArray(error.details) ? error.details : []
  return html`<div class="error" role="alert">
    ${what ? html`<strong>${what}: </strong>` : null}${error.message}
    ${error.code ? html` <code>${error.code}</code>` : null}
    ${details.length > 0 ? html`<ul>${details.map(d => html`<li><code>${d.path}</code> ${d.message}</li>`)}</ul>` : null}
  </div>`
}

/** What a page shows for an endpoint this server does not serve yet. */
export function Missing ({ what, plugin }) {
  return html`<div class="notice" role="status">${what} is not available on this server (the API answered 404). ${plugin ? html`It comes with the <code>${plugin}</code> plugin.` : null}</div>`
}

/** Loading / error / missing / content, in one place. */
export function Loaded ({ state, what, plugin, children }) {
  if (state.missing) return html`<${Missing} what=${what} plugin=${plugin} />`
  if (state.error) return html`<${ErrorBox} error=${state.error} what=${what} />`
  if (state.data === undefined) return html`<p class="muted" aria-busy="true">Loading ${what.toLowerCase()}…</p>`
  return children(state.data)
}

const GOOD = new Set(['healthy', 'connected', 'configured', 'loaded', 'ok', 'idle', 'complete', 'done', 'success', 'enabled', 'running'])
const BAD = new Set(['unhealthy', 'error', 'failed', 'degraded'])
export function Badge ({ status }) {
  const s = String(status ?? 'unknown')
  const kind = BAD.has(s) ? 'bad' : GOOD.has(s) ? 'good' : 'neutral'
  return html`<span class="badge ${kind}">${s.replaceAll('_', ' ')}</span>`
}

export function Pager ({ page, limit, total, hasNext, onPage }) {
  const pages = Math.max(1, Math.ceil(total / limit))
  return html`<nav class="pager" aria-label="pages">
    <button type="button" disabled=${page <= 1} onClick=${() => onPage(page - 1)}>‹ Previous</button>
    <span>Page ${page} of ${pages} · ${total} in all</span>
    <button type="button" disabled=${!hasNext} onClick=${() => onPage(page + 1)}>Next ›</button>
  </nav>`
}

export const fmtDate = (s) => {
  if (!s) return '—'
  const d = new Date(s)
  return Number.isNaN(d.getTime()) ? String(s) : d.toLocaleString()
}
export const fmtMs = (n) => typeof n === 'number' ? (n < 1000 ? `${Math.round(n)} ms` : `${(n / 1000).toFixed(1)} s`) : '—'
export const pct = (x) => typeof x === 'number' ? `${Math.round(x * 100)}%` : '—'

/** Tabs inside a page, keyboard usable (arrow keys move between tabs). */
export function Tabs ({ tabs, current, onChange, label }) {
  const refs = useRef([])
  const onKey = (e, i) => {
    const d = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0
    if (d === 0) return
    const j = (i + d + tabs.length) % tabs.length
    onChange(tabs[j].id)
    refs.current[j]?.focus()
  }
  return html`<div class="tabs" role="tablist" aria-label=${label}>
    ${tabs.map((t, i) => html`<button type="button" role="tab" id=${`tab-${t.id}`} ref=${el => { refs.current[i] = el }}
      aria-selected=${current === t.id} tabindex=${current === t.id ? 0 : -1}
      onClick=${() => onChange(t.id)} onKeyDown=${e => onKey(e, i)}>${t.label}</button>`)}
  </div>`
}

/**
 * Normalises a settings GET into [{ key, value, default, description }]; accepts the flat
 * `{k: v, _meta: {defaults, descriptions, read_only}}` (read-only keys left out: they cannot
 * be saved), `{settings: {k: {value, default}}}`, `{k: {value, default}}` or `{k: v, defaults: {...}}`.
 */
export function settingsEntries (data) {
  const root = data && typeof data.settings === 'object' && data.settings !== null ? data.settings : data
  const meta = data && typeof data._meta === 'object' && data._meta !== null ? data._meta : {}
  const defaults = meta.defaults ?? (data && typeof data.defaults === 'object' ? data.defaults : {})
  const descriptions = meta.descriptions ?? {}
  const readOnly = new Set(meta.read_only ?? [])
  const out = []
  for (const [key, v] of Object.entries(root ?? {})) {
    if (key === 'defaults' || key === 'success' || key === '_meta' || readOnly.has(key)) continue
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && 'value' in v) out.push({ key, value: v.value, default: v.default, description: v.description })
    else out.push({ key, value: v, default: defaults[key], description: descriptions[key] })
  }
  return out
}

/**
 * A form for a settings endpoint: one input per key, typed from its value; POST sends only
 * the changed keys. The server's refusal (400 with details) is shown as it came.
 */
export function SettingsForm ({ path, what, plugin }) {
  const state = useApi(path)
  const action = useAction()
  const [draft, setDraft] = useState({})
  const entries = state.data ? settingsEntries(state.data) : []
  const save = async (e) => {
    e.preventDefault()
    const r = await action.run(() => api(path, { method: 'POST', body: draft }))
    if (r) { setDraft({}); state.reload() }
  }
  const input = (en) => {
    const v = en.key in draft ? draft[en.key] : en.value
    const set = (x) => setDraft(d => ({ ...d, [en.key]: x }))
    const id = `set-${en.key}`
    const kind = typeof (en.value ?? en.default)
    if (kind === 'boolean') return html`<input id=${id} type="checkbox" checked=${v === true} onChange=${e => set(e.target.checked)} />`
    if (kind === 'number') return html`<input id=${id} type="number" step="any" value=${v ?? ''} onInput=${e => set(e.target.value === '' ? null : Number(e.target.value))} />`
    if (kind === 'object' && v !== null) return html`<textarea id=${id} rows="3" onInput=${e => { try { set(JSON.parse(e.target.value)) } catch { /* keep typing */ } }}>${JSON.stringify(v, null, 1)}</textarea>`
    const text = v ?? ''
    return text.length > 80
      ? html`<textarea id=${id} rows="5" onInput=${e => set(e.target.value)}>${text}</textarea>`
      : html`<input id=${id} type="text" value=${text} onInput=${e => set(e.target.value)} />`
  }
  return html`<${Loaded} state=${state} what=${what} plugin=${plugin}>${() => html`
    <form class="settings" onSubmit=${save}>
      ${entries.map(en => html`<div class="field">
        <label for=${`set-${en.key}`}>${en.key}</label>
        ${input(en)}
        <small class="muted">${en.description ?? ''}${en.default !== undefined ? ` default: ${JSON.stringify(en.default)}` : ''}</small>
      </div>`)}
      <div class="row">
        <button type="submit" disabled=${action.busy || Object.keys(draft).length === 0}>Save ${what.toLowerCase()}</button>
        ${action.result ? html`<span class="ok" role="status">Saved: ${(action.result.updated ?? []).join(', ')}</span>` : null}
      </div>
      <${ErrorBox} error=${action.error} what="Not saved" />
    </form>`}<//>`
}

/** The kernel's answer for a path no plugin serves (as opposed to an unknown item on a route that exists). */
export const isMissingRoute = (err) => err?.status === 404 && /^No route /.test(err.message ?? '')
