// Chat: the answer streams in as it arrives; thinking is folded; each tool call and its
// result sit inline where they happened; Stop aborts the request (the server then
// cancels the model call upstream). Model, profile, memory and channel are per message.
import { useState, useRef, useEffect } from 'preact/hooks'
import { html, useApi, ErrorBox, fmtDate } from '../ui.js'
import { streamChat, uuid } from '../api.js'
import { Markdown } from '../lazy-markdown.js'
import { FirstRunBanner } from '../first-run.js'
import { loadSessions, saveSession, fetchSession, deleteSession } from '../sessions.js'

const newSession = () => ({ id: uuid(), title: 'New chat', created_at: new Date().toISOString(), messages: [] })

/** Applies one SSE event to the assistant message being streamed (a new object: Preact re-renders). */
function applyEvent (msg, name, data) {
  const m = { ...msg, parts: [...msg.parts] }
  const last = m.parts.at(-1)
  if (name === 'start') m.model = data.model
  else if (name === 'chunk') {
    if (data.thinking) m.thinking = (m.thinking ?? '') + data.thinking
    if (data.content) {
      if (last?.type === 'text') m.parts[m.parts.length - 1] = { ...last, text: last.text + data.content }
      else m.parts.push({ type: 'text', text: data.content })
    }
  } else if (name === 'tool_call') m.parts.push({ type: 'tool', tool: data.tool, arguments: data.arguments })
  else if (name === 'tool_result') {
    const i = m.parts.findLastIndex(p => p.type === 'tool' && p.tool === data.tool && p.result === undefined)
    if (i >= 0) m.parts[i] = { ...m.parts[i], result: data.content }
  } else if (name === 'done') {
    if (typeof data.thinking === 'string' && data.thinking !== '') m.thinking = data.thinking
    m.done = true
  } else if (name === 'error') m.error = { message: data.error ?? 'The stream failed.', code: data.code }
  return m
}

function ToolPart ({ part }) {
  return html`<details class="tool" open>
    <summary><span class="tag">tool</span> <code>${part.tool}</code> ${part.result === undefined ? html`<span class="muted">running…</span>` : null}</summary>
    <div class="tool-io">
      <div><span class="muted">arguments</span><pre>${JSON.stringify(part.arguments ?? {}, null, 2)}</pre></div>
      ${part.result !== undefined ? html`<div><span class="muted">result</span><pre class="tool-result">${part.result}</pre></div>` : null}
    </div>
  </details>`
}

function Message ({ m }) {
  if (m.role === 'user') return html`<article class="msg user" aria-label="you"><div class="bubble">${m.text}</div></article>`
  return html`<article class="msg assistant" aria-label="assistant">
    ${m.thinking ? html`<details class="thinking"><summary>Thinking</summary><pre>${m.thinking}</pre></details>` : null}
    ${m.parts.map(p => p.type === 'text' ? html`<div class="bubble answer md"><${Markdown} text=${p.text} /></div>` : html`<${ToolPart} part=${p} />`)}
    ${m.stopped ? html`<p class="muted stopped">Stopped.</p>` : null}
    ${m.error ? html`<${ErrorBox} error=${m.error} what="The chat failed" />` : null}
    ${m.model ? html`<small class="muted">${m.model}</small>` : null}
  </article>`
}

export function ChatPage () {
  // The server's list when it has one (any browser sees every session); else this browser's.
  const [local, setLocal] = useState(loadSessions)
  const listed = useApi('/api/chat/sessions?limit=50')
  const sessions = listed.data ? listed.data.sessions.map(x => ({ id: x.id, title: x.title || 'Untitled', updated_at: x.updated_at })) : local
  const [session, setSession] = useState(newSession)
  const [opening, setOpening] = useState(null)
  const [text, setText] = useState('')
  const [model, setModel] = useState('')
  const [profile, setProfile] = useState('')
  const [useMemory, setUseMemory] = useState(true)
  const [channel, setChannel] = useState('')
  const [failure, setFailure] = useState(null)
  const [busy, setBusy] = useState(false)
  const ctl = useRef(null)
  const log = useRef(null)
  const models = useApi('/api/providers/models')
  const profiles = useApi('/api/prompts/profiles')
  const channels = useApi('/api/memory/channels')
  // Memory on or off as Settings saved it (preferences.enable_memory_by_default).
  const config = useApi('/api/config')
  const memoryDefault = config.data?.preferences?.enable_memory_by_default
  useEffect(() => { if (typeof memoryDefault === 'boolean') setUseMemory(memoryDefault) }, [memoryDefault])

  useEffect(() => { log.current?.scrollTo({ top: log.current.scrollHeight }) }, [session])
  useEffect(() => () => ctl.current?.abort(), [])

  // Reopening: the server's history (the same in every browser), else what this browser kept.
  const open = async (x) => {
    if (busy) return
    setFailure(null)
    setOpening(x.id)
    try {
      const kept = local.find(l => l.id === x.id)
      const fromServer = listed.data ? await fetchSession(x.id) : undefined
      setSession(fromServer ?? kept ?? { ...newSession(), id: x.id, title: x.title })
    } catch (err) {
      setFailure(err)
    } finally {
      setOpening(null)
    }
  }
  const fresh = () => { if (!busy) { setSession(newSession()); setFailure(null) } }
  const remove = async (x) => {
    try {
      setLocal(await deleteSession(x.id))
    } catch (err) {
      setFailure(err)
      return
    }
    listed.reload()
    if (x.id === session.id) setSession(newSession())
  }

  const send = async (e) => {
    e?.preventDefault()
    const message = text.trim()
    if (message === '' || busy) return
    setFailure(null)
    const body = { message, session_id: session.id, use_memory: useMemory }
    if (model) body.model = model
    if (profile) body.profile_id = profile
    if (useMemory && channel) body.channel = channel
    let assistant = { role: 'assistant', parts: [] }
    let s = { ...session, title: session.messages.length === 0 ? message.slice(0, 60) : session.title, messages: [...session.messages, { role: 'user', text: message }] }
    const show = () => setSession({ ...s, messages: [...s.messages, assistant] })
    show()
    setText('')
    setBusy(true)
    ctl.current = new AbortController()
    try {
      await streamChat(body, { signal: ctl.current.signal, onEvent: (name, data) => { assistant = applyEvent(assistant, name, data); show() } })
    } catch (err) {
      if (err.name === 'AbortError') assistant = { ...assistant, stopped: true }
      else if (assistant.parts.length === 0 && !assistant.model) {
        // Refused before it started (bad input, unknown model): nothing was saved for this turn.
        setFailure(err); setText(message); s = session; assistant = null
      } else assistant = { ...assistant, error: { message: err.message, code: err.code } }
    } finally {
      ctl.current = null
      setBusy(false)
    }
    if (assistant !== null) s = { ...s, messages: [...s.messages, assistant] }
    setSession(s)
    if (s.messages.length > 0) setLocal(saveSession(s))
    listed.reload()
  }

  const onKey = (e) => { if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) send(e) }
  const modelList = models.data?.models ?? []
  return html`<div class="chat">
    <aside class="sessions" aria-label="sessions">
      <button type="button" class="primary" onClick=${fresh} disabled=${busy}>+ New chat</button>
      <ul>
        ${sessions.map(x => html`<li class=${x.id === session.id ? 'active' : ''} data-session=${x.id}>
          <button type="button" class="session" onClick=${() => open(x)} aria-current=${x.id === session.id ? 'true' : undefined} aria-busy=${opening === x.id} title=${fmtDate(x.updated_at)}>${x.title}</button>
          <button type="button" class="icon" aria-label=${`Forget ${x.title}`} onClick=${() => remove(x)}>×</button>
        </li>`)}
      </ul>
    </aside>
    <section class="conversation">
      <${FirstRunBanner} />
      <form class="pickers" onSubmit=${e => e.preventDefault()} aria-label="chat settings">
        <label>Model <select value=${model} onChange=${e => setModel(e.target.value)}>
          <option value="">server default</option>
          ${modelList.map(m => html`<option value=${`${m.provider}/${m.name}`}>${m.provider}/${m.name}</option>`)}
        </select></label>
        <label>Profile <select value=${profile} onChange=${e => setProfile(e.target.value)}>
          <option value="">default</option>
          ${(profiles.data?.profiles ?? []).map(p => html`<option value=${p.id}>${p.name ?? p.id}</option>`)}
        </select></label>
        <label class="check"><input type="checkbox" checked=${useMemory} onChange=${e => setUseMemory(e.target.checked)} /> Memory</label>
        <label>Channel <select value=${channel} disabled=${!useMemory || !channels.data} onChange=${e => setChannel(e.target.value)}>
          <option value="">_default</option>
          ${(channels.data?.channels ?? []).filter(c => c.name !== '_default').map(c => html`<option value=${c.name}>${c.name}</option>`)}
        </select></label>
      </form>
      <div class="log" ref=${log} aria-live="polite" aria-busy=${busy}>
        ${session.messages.length === 0 ? html`<p class="muted empty">Ask something. Enter sends, Shift+Enter starts a new line.</p>` : null}
        ${session.messages.map((m, i) => html`<${Message} key=${i} m=${m} />`)}
      </div>
      <${ErrorBox} error=${failure} what="Not sent" />
      <form class="composer" onSubmit=${send}>
        <label for="chat-input" class="sr-only">Message</label>
        <textarea id="chat-input" rows="2" placeholder="Message" value=${text} onInput=${e => setText(e.target.value)} onKeyDown=${onKey}></textarea>
        ${busy
          ? html`<button type="button" class="stop" onClick=${() => ctl.current?.abort()}>Stop</button>`
          : html`<button type="submit" class="primary" disabled=${text.trim() === ''}>Send</button>`}
      </form>
    </section>
  </div>`
}
