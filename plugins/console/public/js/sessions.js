// Chat sessions. The server lists the sessions it keeps (GET /api/chat/sessions) and hands
// out each one's history (GET /api/chat/sessions/{id}: user turns, assistant turns with
// their thinking and tool calls, tool results), so any browser sees and reopens them.
// This browser also keeps what it showed in localStorage: the list when the server
// cannot list (an older chat plugin, or a key-value store that cannot enumerate keys),
// and the transcript of a session the server no longer has.
import { api } from './api.js'

const KEY = 'agentd.sessions'
const MAX = 50

export function loadSessions () {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) ?? '[]')
    return Array.isArray(list) ? list : []
  } catch { return [] }
}

export function saveSession (session) {
  const others = loadSessions().filter(s => s.id !== session.id)
  const list = [{ ...session, updated_at: new Date().toISOString() }, ...others].slice(0, MAX)
  try { localStorage.setItem(KEY, JSON.stringify(list)) } catch { /* storage full: the server still has the history */ }
  return list
}

export function forgetSession (id) {
  const list = loadSessions().filter(s => s.id !== id)
  localStorage.setItem(KEY, JSON.stringify(list))
  return list
}

/** The server's history as the chat page shows it: one assistant message per turn, tool results beside their calls. */
export function fromServer (session) {
  const messages = []
  let turn = null
  for (const m of session.messages ?? []) {
    if (m.role === 'user') {
      turn = null
      messages.push({ role: 'user', text: m.content })
    } else if (m.role === 'assistant') {
      if (turn === null) { turn = { role: 'assistant', parts: [], done: true }; messages.push(turn) }
      if (m.thinking) turn.thinking = turn.thinking ? `${turn.thinking}\n\n${m.thinking}` : m.thinking
      if (m.content) turn.parts.push({ type: 'text', text: m.content })
      for (const c of m.tool_calls ?? []) turn.parts.push({ type: 'tool', id: c.id, tool: c.name, arguments: c.arguments })
    } else if (m.role === 'tool' && turn !== null) {
      const part = turn.parts.find(p => p.type === 'tool' && p.result === undefined && (p.id === m.tool_call_id || m.tool_call_id === undefined))
      if (part) part.result = m.content
    }
  }
  return { id: session.id, title: session.title || 'Untitled', created_at: session.created_at, updated_at: session.updated_at, messages }
}

/** One session from the server, ready to show; undefined when the server does not have it. */
export async function fetchSession (id) {
  try {
    return fromServer((await api(`/api/chat/sessions/${encodeURIComponent(id)}`)).session)
  } catch (err) {
    if (err.status === 404) return undefined
    throw err
  }
}

/** Forgets a session here and on the server (one the server no longer has is no error). */
export async function deleteSession (id) {
  try {
    await api(`/api/chat/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' })
  } catch (err) {
    if (err.status !== 404) throw err
  }
  return forgetSession(id)
}
