// System: health at a glance, providers and models (capabilities and cost), and the
// plugins with their status and the last reload's outcome.
import { html, useApi, useAction, Loaded, ErrorBox, Badge, fmtDate, fmtMs } from '../ui.js'
import { api } from '../api.js'

const sectionStatus = (v) => (v && typeof v === 'object' && 'status' in v ? v.status : undefined)

/** One value of a health section: a status badge with its backend and error, nested sections, or plain text. */
function HealthValue ({ v }) {
  if (v === null || typeof v !== 'object') return html`<span>${String(v)}</span>`
  const rest = Object.entries(v).filter(([k]) => !['status', 'backend', 'error', 'warning'].includes(k))
  return html`${sectionStatus(v) ? html`<${Badge} status=${sectionStatus(v)} />` : null}
    ${v.backend ? html` <span class="muted">${v.backend}</span>` : null}
    ${v.error ? html` <span class="error-text">${v.error}</span>` : null}
    ${v.warning ? html` <span class="muted">${v.warning}</span>` : null}
    ${rest.length > 0 ? html`<ul class="sub">${rest.map(([k, x]) => html`<li>${k}: <${HealthValue} v=${x} /></li>`)}</ul>` : null}`
}

function Health () {
  const state = useApi('/api/health?include_memory=true')
  return html`<section><h2>Health</h2>
    <${Loaded} state=${state} what="Health">${d => html`
      <p>Server <${Badge} status=${d.status} /> <span class="muted">version ${d.version}</span> <button type="button" class="link" onClick=${state.reload}>Refresh</button></p>
      <ul class="health">${Object.entries(d).filter(([, v]) => v && typeof v === 'object').map(([k, v]) => html`<li class="card" data-section=${k}>
        <div class="row"><strong>${k}</strong></div><${HealthValue} v=${v} />
      </li>`)}</ul>`}<//>
  </section>`
}

const yes = (b) => b ? '✓' : '–'
const cost = (x) => typeof x === 'number' ? `$${x}` : '—'

function Providers () {
  const providers = useApi('/api/providers')
  const models = useApi('/api/providers/models')
  return html`<section><h2>Providers and models</h2>
    <${Loaded} state=${providers} what="Providers" plugin="providers-api">${d => html`<ul class="cards">${d.providers.map(p => html`<li class="card">
      <div class="row"><strong>${p.name}</strong> <${Badge} status=${p.status} /></div>
      ${p.error ? html`<p class="muted">${p.error}</p>` : null}
    </li>`)}</ul>`}<//>
    <${Loaded} state=${models} what="Models" plugin="providers-api">${d => html`
      ${(d.errors ?? []).length > 0 ? html`<ul>${d.errors.map(e => html`<li class="muted">${typeof e === 'string' ? e : `${e.provider ?? ''}: ${e.error ?? JSON.stringify(e)}`}</li>`)}</ul>` : null}
      <div class="table-wrap"><table class="models">
        <thead><tr><th>Model</th><th class="num">Context</th><th>Tools</th><th>Vision</th><th>Stream</th><th>JSON</th><th class="num">$ / 1k in</th><th class="num">$ / 1k out</th></tr></thead>
        <tbody>${d.models.map(m => html`<tr><td><code>${m.provider}/${m.name}</code>${m.known === false ? html` <span class="tag">unknown</span>` : null}</td>
          <td class="num">${m.context_window?.toLocaleString() ?? '—'}</td><td>${yes(m.supports_tools)}</td><td>${yes(m.supports_vision)}</td><td>${yes(m.supports_streaming)}</td><td>${yes(m.supports_json_mode)}</td>
          <td class="num">${cost(m.cost_per_1k_input)}</td><td class="num">${cost(m.cost_per_1k_output)}</td></tr>`)}</tbody>
      </table></div>`}<//>
  </section>`
}

function Plugins () {
  const state = useApi('/api/plugins')
  const act = useAction()
  const reload = async () => { await act.run(() => api('/api/plugins/reload', { method: 'POST' })); state.reload() }
  return html`<section><h2>Plugins</h2>
    <${ErrorBox} error=${act.error} what="Reload failed" />
    <${Loaded} state=${state} what="Plugins">${d => html`
      <p>Generation ${d.generation} · last reload ${d.last_reload ? html`<${Badge} status=${d.last_reload.ok ? 'ok' : 'failed'} /> ${fmtDate(d.last_reload.at)}${d.last_reload.duration_ms !== undefined ? ` (${fmtMs(d.last_reload.duration_ms)})` : ''}` : '—'}
        <button type="button" disabled=${act.busy} onClick=${reload}>Reload plugins</button></p>
      ${d.last_reload?.error ? html`<div class="error" role="alert">Last reload: ${d.last_reload.error}</div>` : null}
      <div class="table-wrap"><table class="plugins">
        <thead><tr><th>Plugin</th><th>Module</th><th>Version</th><th>Status</th></tr></thead>
        <tbody>${d.plugins.map(p => html`<tr><td>${p.name}</td><td><code>${p.module}</code></td><td>${p.version ?? '—'}</td>
          <td><${Badge} status=${p.status} />${p.error ? html`<div class="error-text">${p.error}</div>` : null}</td></tr>`)}</tbody>
      </table></div>`}<//>
  </section>`
}

export function SystemPage () {
  return html`<div class="page"><h1>System</h1><${Health} /><${Providers} /><${Plugins} /></div>`
}
