// The chat's hook points, for plugins that watch or shape chat turns and the system
// prompt (the chat and prompts plugins run them; anything may subscribe).
import type { Message } from './provider.ts'

/** A chat session as the chat keeps it in the key-value role. */
export interface ChatSession {
  id: string
  messages: Message[]
  created_at: string
  updated_at: string
}

/** A chat request as validated by the chat endpoints (their OpenAPI schema has every field). */
export interface ChatTurnRequest {
  message: string
  session_id?: string
  model?: string
  profile_id?: string
  channel?: string
  use_memory?: boolean
  [field: string]: unknown
}

/** The JSON answer of POST /api/agent/chat. */
export interface ChatTurnResponse {
  response: string
  answer: string
  thinking: string
  session_id: string
  model: string
  provider: string
  [field: string]: unknown
}

declare module '../kernel/hooks.ts' {
  interface HookPayloads {
    /** Before a chat turn starts; a handler may replace the session (e.g. inject messages). */
    'chat:request': { request: ChatTurnRequest, session: ChatSession }
    /** After the answer is final; a handler may replace the response. */
    'chat:response': { request: ChatTurnRequest, response: ChatTurnResponse }
    /** After the system prompt is composed; a handler may replace the prompt. */
    'prompt:compose': { prompt: string, profile_id: string | null }
  }
}
