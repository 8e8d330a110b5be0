// Translation: detect a text's language (POST /api/tools/language-detect-20) and translate
// it (POST /api/tools/translate). The translation model loads on the first request; while
// a request waits, the translation section of GET /api/health is read every second so the
// page shows the load and its progress. A failed load (offline, no model files) shows the
// server's message, which says how to provide the model.
import { useState, useEffect } from 'preact/hooks'
import { html, useApi, useAction, ErrorBox, Loaded, pct } from '../ui.js'
import { api } from '../api.js'

/** The translation model's state while `active`: { status, progress? } from GET /api/health. */
function useModelLoad (active) {
  const [load, setLoad] = useState(null)
  useEffect(() => {
    if (!active) return
    let stop = false
    const look = async () => {
      try {
        const h = await api('/api/health')
        if (!stop) setLoad({ status: h.translation?.models?.translation ?? h.translation?.status, progress: h.translation?.progress })
      } catch { /* the answer of the translate request itself says what failed */ }
    }
    look()
    const id = setInterval(look, 1000)
    return () => { stop = true; clearInterval(id) }
  }, [active])
  return load
}

export function TranslatePage () {
  const langs = useApi('/api/tools/languages')
  const [text, setText] = useState('')
  const [target, setTarget] = useState('fra_Latn')
  const detect = useAction()
  const translate = useAction()
  const load = useModelLoad(translate.busy)
  const ask = (fn) => (e) => { e.preventDefault(); if (text.trim() !== '') fn() }
  const onDetect = ask(() => detect.run(() => api('/api/tools/language-detect-20', { method: 'POST', body: { text } })))
  const onTranslate = ask(() => translate.run(() => api('/api/tools/translate', { method: 'POST', body: { text, targetLanguage: target } })))
  const d = detect.result
  const r = translate.result
  return html`<div class="page translate"><h1>Translation</h1>
    <form class="panel translate-form" onSubmit=${onTranslate}>
      <label for="tr-text">Text</label>
      <textarea id="tr-text" rows="4" value=${text} onInput=${e => setText(e.target.value)}></textarea>
      <div class="row">
        <button type="button" onClick=${onDetect} disabled=${detect.busy || text.trim() === ''}>Detect language</button>
        <${Loaded} state=${langs} what="Languages" plugin="translation">${l => html`
          <label>Into <select name="target" value=${target} onChange=${e => setTarget(e.target.value)}>
            ${l.languages.map(x => html`<option value=${x.code}>${x.name} (${x.code})</option>`)}
          </select></label>`}<//>
        <button type="submit" class="primary" disabled=${translate.busy || text.trim() === ''}>Translate</button>
      </div>
    </form>
    ${d ? html`<p class="detected" role="status">Detected: <strong>${d.language_name}</strong> (<code>${d.language}</code>), ${d.confidence}% sure.</p>` : null}
    <${ErrorBox} error=${detect.error} what="Detection failed" />
    ${translate.busy ? html`<p class="loading" role="status" aria-busy="true">Translating…
      ${load?.status === 'loading' ? html` loading the translation model${typeof load.progress === 'number' ? html` <progress max="100" value=${load.progress}></progress> ${pct(load.progress / 100)}` : '…'}` : null}</p>` : null}
    <${ErrorBox} error=${translate.error} what="Translation failed" />
    ${r ? html`<section class="panel translation" aria-label="translation">
      <p class="muted">${r.source_language} → ${r.target_language}${r.source_confidence !== undefined ? ` (source detected, ${r.source_confidence}% sure)` : ''}</p>
      <p class="translated">${r.translated_text}</p>
    </section>` : null}
  </div>`
}
