// Jobs: each background job with its state and counts, run now, enable/disable, and its
// recent history.
import { useState } from 'preact/hooks'
import { html, useApi, useAction, Loaded, ErrorBox, Badge, fmtDate, fmtMs } from '../ui.js'
import { api } from '../api.js'

function History ({ name }) {
  const state = useApi(`/api/jobs/${encodeURIComponent(name)}`)
  return html`<${Loaded} state=${state} what="History" plugin="jobs">${d => (d.history ?? []).length === 0
    ? html`<p class="muted">No runs yet.</p>`
    : html`<table class="history"><thead><tr><th>When</th><th class="num">Took</th><th>Result</th><th>Metrics</th></tr></thead>
      <tbody>${d.history.map(r => html`<tr><td>${fmtDate(r.timestamp ?? r.started_at)}</td><td class="num">${fmtMs(r.duration_ms)}</td>
        <td><${Badge} status=${r.success ? 'success' : 'failed'} />${r.error ? html` ${r.error}` : null}</td><td><code>${JSON.stringify(r.metrics ?? {})}</code></td></tr>`)}</tbody></table>`}<//>`
}

export function JobsPage () {
  const state = useApi('/api/jobs')
  const act = useAction()
  const [open, setOpen] = useState(null)
  const [last, setLast] = useState(null)
  const toggle = async (j) => { await act.run(() => api(`/api/jobs/${encodeURIComponent(j.name)}/toggle`, { method: 'POST', body: { enabled: !j.enabled } })); state.reload() }
  const run = async (j) => {
    const r = await act.run(() => api(`/api/jobs/${encodeURIComponent(j.name)}/run`, { method: 'POST' }))
    if (r) setLast(r)
    state.reload()
  }
  const clearStuck = async () => { await act.run(() => api('/api/jobs/clear-stuck', { method: 'POST' })); state.reload() }
  return html`<div class="page">
    <h1>Jobs</h1>
    <${ErrorBox} error=${act.error} />
    ${last ? html`<p class=${last.success ? 'ok' : 'error'} role="status">${last.job}: ${last.success ? 'done' : `failed: ${last.error}`} in ${fmtMs(last.duration_ms)} <code>${JSON.stringify(last.metrics ?? {})}</code></p>` : null}
    <${Loaded} state=${state} what="Jobs" plugin="jobs">${d => html`
      <p class="muted">Worker <${Badge} status=${d.worker?.status} />${d.worker?.uptime_seconds !== undefined ? ` up ${Math.round(d.worker.uptime_seconds)} s` : ''}
        <button type="button" class="link" onClick=${clearStuck}>Clear stuck jobs</button></p>
      <ul class="cards">${d.jobs.map(j => html`<li class="card" data-job=${j.name}>
        <div class="row">
          <strong>${j.name}</strong> <${Badge} status=${j.status} />
          <span class="grow"></span>
          <label class="check switch"><input type="checkbox" role="switch" checked=${j.enabled} disabled=${act.busy} onChange=${() => toggle(j)} aria-label=${`${j.name} enabled`} /> ${j.enabled ? 'enabled' : 'disabled'}</label>
          <button type="button" disabled=${act.busy || j.status === 'running'} onClick=${() => run(j)}>Run now</button>
        </div>
        <p>${j.description}</p>
        <p class="muted">every ${j.interval_minutes ? `${j.interval_minutes} min` : '— (manual)'} · last run ${fmtDate(j.last_run)} (${fmtMs(j.last_duration_ms)}) · ${j.run_count ?? 0} runs, ${j.success_count ?? 0} ok, ${j.failure_count ?? 0} failed</p>
        ${j.last_error ? html`<p class="error">${j.last_error}</p>` : null}
        <button type="button" class="link" aria-expanded=${open === j.name} onClick=${() => setOpen(open === j.name ? null : j.name)}>${open === j.name ? 'Hide history' : 'History'}</button>
        ${open === j.name ? html`<${History} name=${j.name} />` : null}
      </li>`)}</ul>`}<//>
  </div>`
}
