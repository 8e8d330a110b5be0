// Answers as Markdown: marked parses, highlight.js colours code, DOMPurify sanitises every
// piece of HTML before it reaches the page, so model output can format text but never run
// script, load a frame or restyle the page (the CSP is the second wall, not the first).
//
// Streaming without flicker: the text is cut into top-level blocks (marked's lexer) and
// each block is its own element whose HTML is set only when that block's HTML changed,
// so while an answer streams only its last block is rewritten; the finished blocks above
// (a table, a highlighted code block, a selection inside them) are left alone.
import { useState } from 'preact/hooks'
import { Marked } from 'marked'
import DOMPurify from 'dompurify'
import hljs from 'highlight.js/lib/core'
import bash from 'highlight.js/lib/languages/bash.js'
import css from 'highlight.js/lib/languages/css.js'
import javascript from 'highlight.js/lib/languages/javascript.js'
import json from 'highlight.js/lib/languages/json.js'
import python from 'highlight.js/lib/languages/python.js'
import sql from 'highlight.js/lib/languages/sql.js'
import typescript from 'highlight.js/lib/languages/typescript.js'
import xml from 'highlight.js/lib/languages/xml.js'
import yaml from 'highlight.js/lib/languages/yaml.js'
import { html } from './ui.js'

const LANGUAGES = { bash, css, javascript, json, python, sql, typescript, xml, yaml }
for (const [name, def] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, def)
const ALIASES = { sh: 'bash', shell: 'bash', js: 'javascript', ts: 'typescript', py: 'python', html: 'xml', yml: 'yaml' }

const escape = (s) => s.replace(/[&<>"']/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]))

/** A fence's language, when highlight.js knows it. */
function language (lang) {
  const name = String(lang ?? '').trim().split(/\s+/)[0].toLowerCase()
  const id = ALIASES[name] ?? name
  return id !== '' && hljs.getLanguage(id) ? id : undefined
}

/** Highlighted HTML of `code` (escaped text when the language is not known). */
function highlight (code, lang) {
  const id = language(lang)
  return id ? hljs.highlight(code, { language: id, ignoreIllegals: true }).value : escape(code)
}

const marked = new Marked({
  gfm: true,
  renderer: {
    // Nested code (in a list, a quote) is highlighted too; top-level code gets its own block with a copy button.
    code ({ text, lang }) { return `<pre><code class="hljs">${highlight(text, lang)}</code></pre>` },
  },
})

// Model output may format text, nothing more: no forms, buttons, styles or frames.
const PURIFY = {
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'option', 'dialog', 'iframe', 'object', 'embed'],
  FORBID_ATTR: ['style', 'class', 'id', 'tabindex'],
  ALLOW_DATA_ATTR: false,
}
// highlight.js's classes are kept in its own output only (sanitised separately, with classes allowed).
const PURIFY_CODE = { ALLOWED_TAGS: ['span'], ALLOWED_ATTR: ['class'] }
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  // Links open in a new tab and tell the other site nothing about this page.
  if (node.tagName === 'A' && node.hasAttribute('href')) { node.setAttribute('target', '_blank'); node.setAttribute('rel', 'noopener noreferrer') }
})

// Finished blocks repeat on every streamed chunk: their HTML is made once.
const cache = new Map()
function remember (key, make) {
  let v = cache.get(key)
  if (v === undefined) {
    v = make()
    if (cache.size > 500) cache.delete(cache.keys().next().value)
    cache.set(key, v)
  }
  return v
}

/**
 * `text` as blocks: `{ kind: 'code', lang, code, html }` for a top-level code block,
 * `{ kind: 'html', html }` for anything else; every `html` sanitised.
 */
export function toBlocks (text) {
  const tokens = marked.lexer(text)
  const out = []
  for (const token of tokens) {
    if (token.type === 'space') continue
    if (token.type === 'code') {
      out.push({ kind: 'code', lang: language(token.lang) ?? '', code: token.text, html: remember(`code\0${token.lang}\0${token.text}`, () => DOMPurify.sanitize(highlight(token.text, token.lang), PURIFY_CODE)) })
      continue
    }
    const one = Object.assign([token], { links: tokens.links })
    out.push({ kind: 'html', html: remember(`html\0${token.raw}`, () => DOMPurify.sanitize(marked.parser(one), PURIFY).trim()) })
  }
  return out
}

/** Copies `text`; the Clipboard API exists only in secure contexts (not on http://<lan-ip>). */
async function copyText (text) {
  if (navigator.clipboard?.writeText) { await navigator.clipboard.writeText(text); return }
  const area = document.createElement('textarea')
  area.value = text
  document.body.append(area)
  area.select()
  document.execCommand('copy')
  area.remove()
}

function CodeBlock ({ b }) {
  const [copied, setCopied] = useState(false)
  const copy = async () => {
    try { await copyText(b.code); setCopied(true); setTimeout(() => setCopied(false), 1500) } catch { setCopied(false) }
  }
  return html`<div class="code-block">
    <div class="code-head"><span class="muted">${b.lang || 'code'}</span>
      <button type="button" class="copy" onClick=${copy} aria-label="Copy code">${copied ? 'Copied' : 'Copy'}</button></div>
    <pre><code class="hljs" dangerouslySetInnerHTML=${{ __html: b.html }}></code></pre>
  </div>`
}

/** Markdown `text` rendered block by block (keyed by position: only a changed block is rewritten). */
export function Markdown ({ text }) {
  const blocks = toBlocks(text)
  return blocks.map((b, i) => b.kind === 'code'
    ? html`<${CodeBlock} key=${i} b=${b} />`
    : html`<div key=${i} class="md-block" dangerouslySetInnerHTML=${{ __html: b.html }}></div>`)
}
