// The chat sessions this browser started, kept in localStorage: the server keeps each
// session's history (for the model) under its id, but has no endpoint that lists them,
// so the list and what was shown (thinking, tool calls) live here. Reopening a session
// shows its transcript and sends the next message with the same session_id.
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
