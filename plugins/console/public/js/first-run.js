// The chat page's first-run banner: when no provider can answer, say why (each provider's
// own reason) and what to do, before a message fails. Read from GET /api/providers, where
// `available` means configured and its model list could be read.
import { html, useApi } from './ui.js'

export function FirstRunBanner () {
  const state = useApi('/api/providers')
  const providers = state.data?.providers
  if (!Array.isArray(providers) || providers.some(p => p.available === true)) return null
  return html`<div class="banner" role="status" aria-label="no provider">
    <p><strong>No model provider is usable yet</strong>, so a message would fail.</p>
    ${providers.length === 0
      ? html`<p class="muted">No provider plugin is loaded.</p>`
      : html`<ul class="why">${providers.map(p => html`<li><code>${p.name}</code>: ${p.error ?? p.status.replaceAll('_', ' ')}</li>`)}</ul>`}
    <p>Start a local server (<code>ollama serve</code>, then <code>ollama pull llama3.2</code>), or <a href="#/settings">set a provider's API key on the Settings page</a>. <button type="button" class="link" onClick=${state.reload}>Check again</button></p>
  </div>`
}
