// agentd's per-request settings on /v1: an extra body field or an `X-Agent-*` header (for
// clients that cannot add body fields); the body wins. OpenAI's `user` names the memory
// channel when none is given: used as it is when it is a valid channel name, else mapped
// to a stable one (`user-` and 16 hex digits of its SHA-256), so each end user of a shared
// client keeps a memory of their own.
import { createHash } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import { CHANNEL_PATTERN } from '@agentd/sdk/kits/memory'
import { OpenAIErrors } from './errors.ts'
import type { CompletionRequestBody } from './schema.ts'

const CHANNEL_RE = new RegExp(CHANNEL_PATTERN)

export interface RequestOptions {
  profile_id: string | undefined
  channel: string | undefined
  use_memory: boolean | undefined
  session_id: string | undefined
}

function header (headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name]
  const s = Array.isArray(v) ? v[0] : v
  return s === undefined || s.trim() === '' ? undefined : s.trim()
}

function flag (raw: string | undefined, name: string): boolean | undefined {
  if (raw === undefined) return undefined
  if (/^(true|1|yes|on)$/i.test(raw)) return true
  if (/^(false|0|no|off)$/i.test(raw)) return false
  throw new OpenAIErrors.BAD_MESSAGE(`Header ${name} must be true or false (got "${raw}").`)
}

export function channelOfUser (user: string): string {
  return CHANNEL_RE.test(user) ? user : `user-${createHash('sha256').update(user).digest('hex').slice(0, 16)}`
}

export function requestOptions (body: CompletionRequestBody, headers: IncomingHttpHeaders): RequestOptions {
  const headerChannel = header(headers, 'x-agent-channel')
  if (headerChannel !== undefined && !CHANNEL_RE.test(headerChannel)) {
    throw new OpenAIErrors.BAD_MESSAGE(`Header X-Agent-Channel "${headerChannel}" is not a channel name: 1-64 letters, digits, hyphens, underscores; not _all.`)
  }
  const user = body.user === undefined || body.user.trim() === '' ? undefined : channelOfUser(body.user.trim())
  return {
    profile_id: body.profile_id ?? header(headers, 'x-agent-profile'),
    channel: body.channel ?? headerChannel ?? user,
    use_memory: body.use_memory ?? flag(header(headers, 'x-agent-memory'), 'X-Agent-Memory'),
    session_id: body.session_id ?? header(headers, 'x-agent-session'),
  }
}
