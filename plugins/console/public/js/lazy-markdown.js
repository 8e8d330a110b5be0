// The Markdown renderer (markdown.js and its libraries, about 100 KB compressed) loads on
// the first answer a page shows, not with the page: the first load of `/` stays small.
// Until it is there (a moment, once per page load) an answer shows as plain text.
import { useState, useEffect } from 'preact/hooks'
import { html } from './ui.js'

let loaded
let loading
const load = () => (loading ??= import('./markdown.js').then(m => { loaded = m; return m }))

export function Markdown ({ text }) {
  const [m, setM] = useState(loaded)
  useEffect(() => { if (m === undefined) load().then(setM) }, [])
  return m === undefined ? html`<div class="md-block plain">${text}</div>` : html`<${m.Markdown} text=${text} />`
}
