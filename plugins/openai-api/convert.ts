// OpenAI's chat messages and tools to agentd's provider types, and agentd's tool calls
// back to OpenAI's. The client owns the conversation (it sends the whole history each
// time); its system and developer messages are collected to join agentd's composed prompt.
import type { ImageInput, Message, ToolCall, ToolDefinition } from '@agentd/sdk/contracts/provider'
import { OpenAIErrors } from './errors.ts'
import type { WireMessage, WireToolDef } from './schema.ts'

export interface ConvertedConversation {
  /** System and developer messages' text, in order. */
  system: string[]
  /** Everything else, as agentd's messages. */
  messages: Message[]
}

/** Text of a message's content: a string, null, or text parts (any other part is a 400 here). */
export function contentText (content: WireMessage['content'], at: string): string {
  return userContent(content, at, false).text
}

/** Text and, where `images` allows (user messages), `image_url` parts; any other part is a 400. */
function userContent (content: WireMessage['content'], at: string, images: boolean): { text: string, images: ImageInput[] } {
  if (content === undefined || content === null) return { text: '', images: [] }
  if (typeof content === 'string') return { text: content, images: [] }
  const texts: string[] = []
  const found: ImageInput[] = []
  content.forEach((part, i) => {
    if (part.type === 'text' && typeof part.text === 'string') { texts.push(part.text); return }
    if (part.type === 'image_url' && images && part.image_url !== undefined) { found.push(part.image_url); return }
    const allowed = images ? 'text and image_url parts are supported' : 'only text parts are supported on this role'
    throw new OpenAIErrors.UNSUPPORTED(`${at}.content.${i}: ${allowed} (got "${part.type}"${part.type === 'image_url' ? ' without image_url' : ''}).`)
  })
  return { text: texts.join('\n'), images: found }
}

/** Whether any message carries an image (the model must support vision). */
export const hasImages = (messages: readonly Message[]): boolean => messages.some(m => (m.images?.length ?? 0) > 0)

function parseArguments (raw: string, at: string): Record<string, unknown> {
  if (raw.trim() === '') return {}
  let v: unknown
  try { v = JSON.parse(raw) } catch (err) {
    throw new OpenAIErrors.BAD_MESSAGE(`${at}.function.arguments is not valid JSON: ${(err as Error).message}`)
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new OpenAIErrors.BAD_MESSAGE(`${at}.function.arguments must be a JSON object.`)
  return v as Record<string, unknown>
}

export function convertMessages (wire: WireMessage[]): ConvertedConversation {
  const system: string[] = []
  const messages: Message[] = []
  const callNames = new Map<string, string>()
  wire.forEach((m, i) => {
    const at = `messages.${i}`
    if (m.role === 'user') {
      const { text, images } = userContent(m.content, at, true)
      messages.push({ role: 'user', content: text, ...(images.length === 0 ? {} : { images }) })
      return
    }
    const text = contentText(m.content, at)
    switch (m.role) {
      case 'system':
      case 'developer':
        if (text !== '') system.push(text)
        return
      case 'assistant': {
        const msg: Message = { role: 'assistant', content: text }
        if (m.tool_calls !== undefined && m.tool_calls.length > 0) {
          msg.tool_calls = m.tool_calls.map((c, j): ToolCall => {
            callNames.set(c.id, c.function.name)
            return { id: c.id, name: c.function.name, arguments: parseArguments(c.function.arguments, `${at}.tool_calls.${j}`) }
          })
        }
        messages.push(msg)
        return
      }
      case 'tool': {
        if (m.tool_call_id === undefined || m.tool_call_id === '') throw new OpenAIErrors.BAD_MESSAGE(`${at}: a tool message needs tool_call_id (the id of the call it answers).`)
        const name = callNames.get(m.tool_call_id) ?? m.name
        messages.push({ role: 'tool', content: text, tool_call_id: m.tool_call_id, ...(name === undefined ? {} : { name }) })
      }
    }
  })
  if (messages.length === 0) throw new OpenAIErrors.BAD_MESSAGE('messages holds only system messages; add a user message.')
  return { system, messages }
}

export function toolDefinitions (tools: WireToolDef[] | undefined): ToolDefinition[] {
  return (tools ?? []).map(t => ({
    name: t.function.name,
    description: t.function.description ?? '',
    input_schema: t.function.parameters ?? { type: 'object', properties: {} },
  }))
}

export interface WireToolCallOut { id: string, type: 'function', function: { name: string, arguments: string } }

export const toWireToolCall = (c: ToolCall): WireToolCallOut => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.arguments) } })

/** The last user message: the one new input, which AGENT_MAX_CHAT_LENGTH limits and memory recalls for. */
export function lastUserText (messages: Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i].role === 'user') return messages[i].content
  return ''
}
