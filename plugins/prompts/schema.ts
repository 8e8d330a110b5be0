// The shape of data/system_prompts.yaml (SPEC.md PromptSection, PromptProfile, GlobalPrompt),
// checked whole before it is used: a bad edit is refused with the path of the bad field.
import { Type, type Static } from '@agentd/sdk/typebox'

export const SECTION_TYPES = ['persona', 'task', 'format', 'constraints', 'examples', 'context', 'custom'] as const

const Id = Type.String({ pattern: '^[A-Za-z0-9_.-]+$', minLength: 1, maxLength: 100 })

export const PromptSectionSchema = Type.Object({
  id: Id,
  name: Type.String({ minLength: 1 }),
  type: Type.Union(SECTION_TYPES.map(s => Type.Literal(s))),
  content: Type.String(),
  enabled: Type.Boolean({ default: true }),
  order: Type.Integer({ default: 0 }),
}, { additionalProperties: false })

export const PromptProfileSchema = Type.Object({
  id: Id,
  name: Type.String({ minLength: 1 }),
  description: Type.String({ default: '' }),
  is_default: Type.Boolean({ default: false }),
  sections: Type.Array(PromptSectionSchema, { default: [] }),
}, { additionalProperties: false })

export const GlobalPromptSchema = Type.Object({
  content: Type.String({ default: '' }),
  enabled: Type.Boolean({ default: true }),
}, { additionalProperties: false })

export const PromptsFileSchema = Type.Object({
  global_prompt: GlobalPromptSchema,
  profiles: Type.Array(PromptProfileSchema),
}, { additionalProperties: false })

export type PromptSection = Static<typeof PromptSectionSchema>
export type PromptProfile = Static<typeof PromptProfileSchema>
export type GlobalPrompt = Static<typeof GlobalPromptSchema>
export type PromptsFile = Static<typeof PromptsFileSchema>
