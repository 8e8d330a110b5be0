// Memory export and import (GET /api/memory/export, POST /api/memory/import): a channel
// (or every channel) downloaded as a JSON Lines file, and such a file, or a ChatGPT
// conversations.json, loaded into a channel. Loaded when its tab is first opened, not
// with the page (memory.js), so the first load of / does not grow.
import { useState } from 'preact/hooks'
import { html, useApi, useAction, ErrorBox, fmtMs } from '../ui.js'
import { ApiError, apiKey } from '../api.js'

const KINDS = ['conversations', 'turns', 'entities', 'relationships', 'facts', 'goals', 'strategies']

/** fetch with the API key; a refusal becomes the server's own message (ApiError). */
async function call (path, init = {}) {
  const headers = { ...(init.headers ?? {}) }
  if (apiKey.get()) headers['x-api-key'] = apiKey.get()
  let res
  try {
    res = await fetch(path, { ...init, headers })
  } catch (err) {
    throw new ApiError(0, undefined, `The server did not answer (${err.message}). Is agentd running?`)
  }
  if (res.ok) return res
  const text = await res.text()
  let body
  try { body = JSON.parse(text) } catch { body = undefined }
  throw new ApiError(res.status, body, `${init.method ?? 'GET'} ${path} answered ${res.status}.`)
}

async function download (channel) {
  const res = await call(`/api/memory/export?channel=${encodeURIComponent(channel)}`)
  const blob = await res.blob()
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'agentd-memory.jsonl'
  const a = document.createElement('a')
  a.href = URL.createObjectURL(blob)
  a.download = name
  document.body.append(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(a.href), 60_000)
  const text = await blob.text()
  return { name, bytes: blob.size, lines: text.split('\n').filter(l => l !== '').length }
}

/** Sends the file and reads the server's progress lines as they come; resolves with the result line. */
async function upload (file, channel, onProgress) {
  const text = await file.text()
  // A ChatGPT export is one JSON array; an agentd export is JSON Lines.
  const json = /\.json$/i.test(file.name) || text.trimStart().startsWith('[')
  const q = channel.trim() === '' ? '' : `?channel=${encodeURIComponent(channel.trim())}`
  const res = await call(`/api/memory/import${q}`, { method: 'POST', headers: { 'content-type': json ? 'application/json' : 'application/x-ndjson', accept: 'application/x-ndjson' }, body: text })
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader()
  let buf = ''
  let last
  for (;;) {
    const { value, done } = await reader.read()
    if (done) break
    buf += value
    for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
      const line = buf.slice(0, i).trim()
      buf = buf.slice(i + 1)
      if (line === '') continue
      const o = JSON.parse(line)
      if (o.kind === 'progress') onProgress(o)
      else last = o
    }
  }
  if (last?.kind === 'error') throw new ApiError(last.statusCode, last, 'The import failed.')
  if (last?.kind !== 'result') throw new ApiError(0, undefined, 'The import ended without a result: the connection was cut. Nothing half-written stays; check the server log and import again.')
  return last
}

function Counts ({ r }) {
  return html`<div class="table-wrap"><table class="import-result">
    <thead><tr><th></th>${KINDS.map(k => html`<th class="num">${k}</th>`)}</tr></thead>
    <tbody>
      <tr><th>new</th>${KINDS.map(k => html`<td class="num">${r.imported?.[k] ?? 0}</td>`)}</tr>
      <tr><th>already there</th>${KINDS.map(k => html`<td class="num">${r.existing?.[k] ?? 0}</td>`)}</tr>
    </tbody>
  </table></div>`
}

export function Transfer () {
  const channels = useApi('/api/memory/channels')
  const [from, setFrom] = useState('_all')
  const [file, setFile] = useState(null)
  const [into, setInto] = useState('')
  const [progress, setProgress] = useState(null)
  const out = useAction()
  const inn = useAction()
  const names = (channels.data?.channels ?? []).map(c => c.name)
  const doImport = async (e) => {
    e.preventDefault()
    setProgress(null)
    if (file && await inn.run(() => upload(file, into, setProgress))) channels.reload()
  }
  const r = inn.result
  return html`<div class="transfer">
    <section aria-label="export">
      <h3>Export</h3>
      <p class="muted">Downloads a JSON Lines file: conversations and turns, entities and relationships, facts with their history, goals and strategies.</p>
      <div class="row">
        <label>Channel <select id="export-channel" value=${from} onChange=${e => setFrom(e.target.value)}>
          <option value="_all">every channel</option>${names.map(n => html`<option value=${n}>${n}</option>`)}
        </select></label>
        <button type="button" disabled=${out.busy} onClick=${() => out.run(() => download(from))}>${out.busy ? 'Exporting…' : 'Export'}</button>
      </div>
      <${ErrorBox} error=${out.error} what="Export failed" />
      ${out.result ? html`<p class="ok" role="status">Saved ${out.result.name}: ${out.result.lines} lines, ${(out.result.bytes / 1024).toFixed(1)} KB.</p>` : null}
    </section>
    <section aria-label="import">
      <h3>Import</h3>
      <p class="muted">An agentd export (.jsonl) or a ChatGPT <code>conversations.json</code>. The whole file is checked first: a bad file changes nothing.</p>
      <form class="row" onSubmit=${doImport}>
        <label>File <input id="import-file" type="file" accept=".jsonl,.ndjson,.json,application/json,application/x-ndjson" onChange=${e => setFile(e.target.files?.[0] ?? null)} required /></label>
        <label>Into channel <input id="import-channel" value=${into} onInput=${e => setInto(e.target.value)} placeholder="as in the file" list="import-channels" /></label>
        <datalist id="import-channels">${names.map(n => html`<option value=${n} />`)}</datalist>
        <button type="submit" disabled=${inn.busy || !file}>${inn.busy ? 'Importing…' : 'Import'}</button>
      </form>
      ${inn.busy && progress ? html`<p role="status"><progress max=${progress.total} value=${progress.done}></progress> ${progress.done} of ${progress.total} items</p>` : null}
      <${ErrorBox} error=${inn.error} what="Import failed" />
      ${r ? html`<div role="status" class="ok">Imported (${r.format}) into ${r.channels.join(', ')} in ${fmtMs(r.duration_ms)}${r.dropped > 0 ? `; ${r.dropped} references to items not in the file left out` : ''}.</div><${Counts} r=${r} />` : null}
    </section>
  </div>`
}
