// Tools: MCP servers with connect/disconnect and their tools, then every tool the chat
// can offer from every tool source. A server with OAuth shows whether agentd is authorized
// and, while it needs a person's approval, an Authorize link to the authorization server
// (a new tab, which comes back to agentd's callback; Refresh then shows it connected).
import { useState } from 'preact/hooks'
import { html, useApi, useAction, Loaded, ErrorBox, Badge, fmtDate } from '../ui.js'
import { api } from '../api.js'

function ServerTools ({ name }) {
  const state = useApi(`/api/mcp/tools?server=${encodeURIComponent(name)}`)
  return html`<${Loaded} state=${state} what="Tools" plugin="mcp">${d => d.tools.length === 0
    ? html`<p class="muted">No tools.</p>`
    : html`<ul class="tool-list">${d.tools.map(t => html`<li><code>${t.name}</code> <${Badge} status=${t.status} />${t.shadowed_by ? html` <span class="tag warn">shadowed by ${t.shadowed_by}</span>` : null} <span class="muted">${t.description}</span></li>`)}</ul>`}<//>`
}

function Servers () {
  const state = useApi('/api/mcp/servers')
  const act = useAction()
  const [open, setOpen] = useState(null)
  const call = async (what, server) => {
    const r = await act.run(() => api(`/api/mcp/${what}`, { method: 'POST', body: { server } }))
    state.reload()
    return r
  }
  return html`<section>
    <h2>MCP servers</h2>
    <${ErrorBox} error=${act.error} />
    ${act.result?.status === 'error' ? html`<div class="error" role="alert">${act.result.server}: ${act.result.error}</div>` : null}
    ${act.result?.status === 'needs_auth' ? html`<div role="status">${act.result.server} needs your approval: use Authorize, then Refresh.</div>` : null}
    <${Loaded} state=${state} what="MCP servers" plugin="mcp">${d => html`
      ${d.config_error ? html`<div class="error" role="alert">mcp_servers.json: ${d.config_error}</div>` : null}
      ${d.servers.length === 0 ? html`<p class="muted">No servers in mcp_servers.json.</p>` : null}
      <ul class="cards">${d.servers.map(s => html`<li class="card" data-server=${s.name}>
        <div class="row">
          <strong>${s.name}</strong> <${Badge} status=${s.status} /> <span class="muted">${s.active_transport ?? s.transport}</span>
          ${s.enabled === false ? html`<span class="tag">disabled</span>` : null}
          ${s.auth ? html`<span class="tag" data-auth>OAuth: ${s.auth.authorized ? 'authorized' : 'not authorized'}</span>` : null}
          <span class="grow"></span>
          ${s.status === 'needs_auth' && s.auth?.authorization_url
            ? html`<a class="button primary" href=${s.auth.authorization_url} target="_blank" rel="noopener noreferrer">Authorize</a> <button type="button" onClick=${() => state.reload()}>Refresh</button>`
            : s.status === 'connected'
            ? html`<button type="button" disabled=${act.busy} onClick=${() => call('disconnect', s.name)}>Disconnect</button>`
            : html`<button type="button" class="primary" disabled=${act.busy || s.enabled === false} onClick=${() => call('connect', s.name)}>Connect</button>`}
        </div>
        ${s.description ? html`<p>${s.description}</p>` : null}
        ${s.error && s.status !== 'needs_auth' ? html`<p class="error">${s.error}</p>` : null}
        <p class="muted">${s.tools_count} tools · ${s.resources_count} resources · ${s.prompts_count ?? 0} prompts${s.connected_at ? ` · connected ${fmtDate(s.connected_at)}` : ''}${s.next_retry_at ? ` · retry ${fmtDate(s.next_retry_at)}` : ''}</p>
        <button type="button" class="link" aria-expanded=${open === s.name} onClick=${() => setOpen(open === s.name ? null : s.name)}>${open === s.name ? 'Hide tools' : 'Show tools'}</button>
        ${open === s.name ? html`<${ServerTools} name=${s.name} />` : null}
      </li>`)}</ul>`}<//>
  </section>`
}

function AllTools () {
  const state = useApi('/api/tools')
  return html`<section>
    <h2>Every tool the chat can use</h2>
    <${Loaded} state=${state} what="Tools" plugin="tools-api">${d => html`
      <div class="table-wrap"><table>
        <thead><tr><th>Tool</th><th>Source</th><th>Description</th></tr></thead>
        <tbody>${d.tools.map(t => html`<tr><td><code>${t.name}</code></td><td>${t.server}</td><td>${t.description}</td></tr>`)}</tbody>
      </table></div>`}<//>
  </section>`
}

export function ToolsPage () {
  return html`<div class="page"><h1>Tools</h1><${Servers} /><${AllTools} /></div>`
}
