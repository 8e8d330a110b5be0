// Talking to the agentd API: JSON calls, the chat stream, and the API key.
// Every failure becomes an ApiError carrying the server's own message, so pages can show
// what the server said instead of a generic "request failed".
import { EventSourceParserStream } from 'eventsource-parser/stream'

const KEY = 'agentd.apiKey'

export class ApiError extends Error {
  constructor (status, body, fallback) {
    const msg = body && typeof body === 'object' && typeof body.error === 'string' ? body.error : fallback
    super(msg)
    this.status = status
    this.code = body && typeof body === 'object' ? body.code : undefined
    this.details = body && typeof body === 'object' ? body.details : undefined
  }
}

// The API key lives in sessionStorage: asked once, kept for this tab's session only.
export const apiKey = {
  get: () => sessionStorage.getItem(KEY) ?? '',
  set: (k) => { if (k) sessionStorage.setItem(KEY, k); else sessionStorage.removeItem(KEY) },
}

// The shell registers how to ask for a key (a dialog); api() waits for the answer on a 401.
let askForKey = async () => false
let asking
export function onKeyNeeded (fn) { askForKey = fn }
async function needKey (message) {
  asking ??= askForKey(message).finally(() => { asking = undefined })
  return await asking
}

function headers (json) {
  const h = {}
  const k = apiKey.get()
  if (k) h['x-api-key'] = k
  if (json) h['content-type'] = 'application/json'
  return h
}

async function readBody (res) {
  const text = await res.text()
  if (text === '') return undefined
  try { return JSON.parse(text) } catch { return text }
}

/** A JSON call. `body` is sent as JSON; a 401 asks for the key and tries once more. */
export async function api (path, { method = 'GET', body, signal } = {}) {
  for (let attempt = 0; ; attempt++) {
    let res
    try {
      res = await fetch(path, { method, headers: headers(body !== undefined), body: body === undefined ? undefined : JSON.stringify(body), signal })
    } catch (err) {
      if (err.name === 'AbortError') throw err
      throw new ApiError(0, undefined, `The server did not answer (${err.message}). Is agentd running?`)
    }
    const data = await readBody(res)
    if (res.status === 401 && attempt === 0 && await needKey(data?.error)) continue
    if (!res.ok) throw new ApiError(res.status, data, `${method} ${path} answered ${res.status}.`)
    return data
  }
}

/** POST /api/agent/chat/stream (streamPost). */
export const streamChat = (body, opts) => streamPost('/api/agent/chat/stream', body, opts)

/**
 * A POST answered with Server-Sent Events (the chat stream, the agent run stream). Calls
 * `onEvent(name, data)` for every event as it arrives. Input the server refuses comes
 * back as JSON (not a stream): thrown as ApiError. Aborting `signal` closes the
 * connection, which cancels the work upstream.
 */
export async function streamPost (path, body, { signal, onEvent }) {
  for (let attempt = 0; ; attempt++) {
    let res
    try {
      res = await fetch(path, { method: 'POST', headers: { ...headers(true), accept: 'text/event-stream' }, body: JSON.stringify(body), signal })
    } catch (err) {
      if (err.name === 'AbortError') throw err
      throw new ApiError(0, undefined, `The server did not answer (${err.message}). Is agentd running?`)
    }
    const type = res.headers.get('content-type') ?? ''
    if (!type.startsWith('text/event-stream')) {
      const data = await readBody(res)
      if (res.status === 401 && attempt === 0 && await needKey(data?.error)) continue
      throw new ApiError(res.status, data, `${path} answered ${res.status}.`)
    }
    const events = res.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream())
    const reader = events.getReader()
    for (;;) {
      const { value, done } = await reader.read()
      if (done) return
      let data
      try { data = JSON.parse(value.data) } catch { data = value.data }
      onEvent(value.event ?? 'message', data)
    }
  }
}

/** A v4 UUID; crypto.randomUUID exists only in secure contexts (not on http://<lan-ip>). */
export function uuid () {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  const b = crypto.getRandomValues(new Uint8Array(16))
  b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80
  const h = [...b].map(x => x.toString(16).padStart(2, '0')).join('')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}
