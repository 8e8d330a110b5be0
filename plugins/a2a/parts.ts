// A2A messages in and out: the text of a message's parts, the skill and settings its
// metadata names, and the messages, artifacts and statuses agentd sends back (the SDK's
// types: a part is a tagged union under `content`).
import { randomUUID } from 'node:crypto'
import { Role, TaskState, type Artifact, type Message, type Part, type TaskStatus } from '@a2a-js/sdk'

export const SKILLS = ['chat', 'agent-run', 'translate'] as const
export type SkillId = typeof SKILLS[number]

/** What one incoming message asks for. */
export interface TurnInput {
  skill: SkillId
  text: string
  /** Message metadata `channel`: the memory channel (as `user` on /v1), else the default. */
  channel?: string
  /** Message metadata `use_memory`, else the `preferences.enable_memory_by_default` setting. */
  use_memory?: boolean
  /** Message metadata `model` (provider/model), else the default model. */
  model?: string
  /** Message metadata `profile_id`: a prompt profile. */
  profile_id?: string
  /** agent-run: metadata `reasoning_strategy`. */
  strategy?: string
  /** translate: metadata `target_language` / `source_language` (NLLB-200 codes, e.g. `fra_Latn`). */
  target_language?: string
  source_language?: string
}

const str = (v: unknown): string | undefined => typeof v === 'string' && v !== '' ? v : undefined

/** The text of the message's text parts, joined; other parts are named by `otherParts`. */
export function textOf (message: Message): string {
  return message.parts.map(p => p.content?.$case === 'text' ? p.content.value : '').filter(t => t !== '').join('\n')
}

/** Media types of the parts that are not text (agentd's skills take text). */
export function otherParts (message: Message): string[] {
  return message.parts.filter(p => p.content !== undefined && p.content.$case !== 'text').map(p => p.mediaType !== '' ? p.mediaType : p.content?.$case ?? 'unknown')
}

/** The skill and settings from the message's metadata; `skill` unknown is reported as given. */
export function readInput (message: Message): TurnInput & { requestedSkill: string } {
  const m: Record<string, unknown> = message.metadata ?? {}
  const requestedSkill = str(m.skill) ?? 'chat'
  const flag = (v: unknown): boolean | undefined => typeof v === 'boolean' ? v : undefined
  const given: Partial<TurnInput> = {
    channel: str(m.channel),
    use_memory: flag(m.use_memory),
    model: str(m.model),
    profile_id: str(m.profile_id),
    strategy: str(m.reasoning_strategy),
    target_language: str(m.target_language),
    source_language: str(m.source_language),
  }
  // Unset keys left out, not set to undefined.
  const input = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) as Partial<TurnInput>
  return {
    ...input,
    requestedSkill,
    skill: (SKILLS as readonly string[]).includes(requestedSkill) ? requestedSkill as SkillId : 'chat',
    text: textOf(message),
  }
}

export const textPart = (text: string): Part => ({ content: { $case: 'text', value: text }, mediaType: 'text/plain', filename: '', metadata: undefined })

export function agentMessage (taskId: string, contextId: string, text: string): Message {
  return { messageId: randomUUID(), contextId, taskId, role: Role.ROLE_AGENT, parts: [textPart(text)], metadata: undefined, extensions: [], referenceTaskIds: [] }
}

export function status (state: TaskState, message?: Message): TaskStatus {
  return { state, message, timestamp: new Date().toISOString() }
}

/** The answer artifact: one per task, its text streamed in pieces, then replaced whole. */
export const answerArtifact = (artifactId: string, text: string): Artifact =>
  ({ artifactId, name: 'answer', description: '', parts: [textPart(text)], metadata: undefined, extensions: [] })
