// A ChatGPT data export's `conversations.json` (Settings > Data controls > Export) as
// conversations and turns of one channel. Each conversation is a tree of message nodes
// (`mapping`: id -> { message, parent, children }); the branch the user last saw ends at
// `current_node`, so that branch, root first, is the conversation (edited-away branches
// are left out). User and assistant messages with text become turns; system prompts,
// tool output and non-text parts (images, files) are skipped. Turn ids are derived from
// the message ids, so importing the same export again adds nothing twice.
import { check } from '@agentd/sdk'
import { Type, type Static } from '@agentd/sdk/typebox'
import { withDetails } from '@agentd/sdk'
import { MemoryErrors } from './errors.ts'
import { emptyDoc, type TransferDoc } from './transfer-format.ts'
import { nameUuid } from './transfer-ids.ts'

const Message = Type.Object({
  id: Type.Optional(Type.String()),
  author: Type.Object({ role: Type.String() }),
  create_time: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
  content: Type.Optional(Type.Object({ parts: Type.Optional(Type.Array(Type.Unknown())), text: Type.Optional(Type.String()) })),
})
const Node = Type.Object({ message: Type.Optional(Type.Union([Message, Type.Null()])), parent: Type.Optional(Type.Union([Type.String(), Type.Null()])) })
export const ChatGptExport = Type.Array(Type.Object({
  id: Type.Optional(Type.String()), conversation_id: Type.Optional(Type.String()), title: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  create_time: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
  current_node: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  mapping: Type.Record(Type.String(), Node),
}), { maxItems: 100_000 })
type Conversation = Static<typeof ChatGptExport>[number]
type Msg = Static<typeof Message>

/** Is this body a ChatGPT export (a JSON array of objects with `mapping`)? */
export const looksLikeChatGpt = (body: unknown): boolean => Array.isArray(body) && body.length > 0 && typeof (body[0] as { mapping?: unknown } | null)?.mapping === 'object'

export function readChatGpt (body: unknown, channel: string, maxText: number): TransferDoc {
  const r = check(ChatGptExport, body)
  if (!r.ok) {
    const shown = r.errors.slice(0, 20)
    throw withDetails(new MemoryErrors.BAD_REQUEST(`The body is not a ChatGPT conversations.json export, nothing was imported: ${shown.map(e => `${e.path}: ${e.message}`).join('; ')}`), shown)
  }
  const doc = emptyDoc()
  r.value.forEach((c, i) => {
    const id = c.id ?? c.conversation_id ?? nameUuid(`chatgpt:${i}:${c.title ?? ''}:${c.create_time ?? ''}`)
    const started = seconds(c.create_time) ?? new Date(0).toISOString()
    const msgs = branch(c)
    let index = 0
    for (const m of msgs) {
      const text = textOf(m)
      if (text === '' || (m.author.role !== 'user' && m.author.role !== 'assistant')) continue
      if (text.length > maxText) throw new MemoryErrors.TEXT_TOO_LONG(`[${i}] "${c.title ?? id}": a message`, text.length, maxText)
      doc.turns.push({
        kind: 'turn', id: nameUuid(`chatgpt:${id}:${m.id ?? index}`), conversation_id: id, index: index++, line: i,
        timestamp: seconds(m.create_time) ?? started, role: m.author.role, content: text, channel,
        metadata: { imported_from: 'chatgpt', ...(c.title === undefined || c.title === null ? {} : { title: c.title }) },
      })
    }
    if (index > 0) doc.conversations.push({ kind: 'conversation', id, channel, created_at: started, line: i })
  })
  return doc
}

/** The messages of the branch ending at current_node, root first; without one, every message by time. */
function branch (c: Conversation): Msg[] {
  const out: Msg[] = []
  const seen = new Set<string>()
  let at = c.current_node ?? null
  while (at !== null && c.mapping[at] !== undefined && !seen.has(at)) {
    seen.add(at)
    const node = c.mapping[at]
    if (node.message !== undefined && node.message !== null) out.push(node.message)
    at = node.parent ?? null
  }
  if (out.length > 0) return out.reverse()
  return Object.values(c.mapping).flatMap(n => n.message === undefined || n.message === null ? [] : [n.message])
    .sort((a, b) => (a.create_time ?? 0) - (b.create_time ?? 0))
}

function textOf (m: Msg): string {
  const parts = m.content?.parts ?? (m.content?.text === undefined ? [] : [m.content.text])
  return parts.filter((p): p is string => typeof p === 'string').join('\n').trim()
}

const seconds = (t: number | null | undefined): string | undefined => typeof t === 'number' && Number.isFinite(t) ? new Date(t * 1000).toISOString() : undefined
