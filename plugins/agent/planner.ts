// The planner: decomposes a task into typed plan steps with one model call. When the
// planning model supports JSON mode the answer is constrained by a JSON Schema; otherwise
// a tolerant parser reads JSON in prose or fences, or a numbered list. When planning is
// disabled, the call fails, or nothing usable comes back, the plan is one step: the task.
import type { PlanStep, PlanStepType, StrategyCompleteOptions, StrategyCompletion, StrategyCompletionRequest } from '@agentd/sdk/contracts/strategy'
import { listItems, parseJsonLoose } from '@agentd/sdk/kits/output'

export const STEP_TYPES: readonly PlanStepType[] = ['research', 'analysis', 'generation', 'action', 'verification']

const SYNONYMS: Array<[RegExp, PlanStepType]> = [
  [/^(research|search|gather|look\s*up|lookup|find|investigat\w*|collect)/i, 'research'],
  [/^(generat\w*|writ\w*|draft\w*|compos\w*|answer\w*|summar\w*|synthes\w*|produc\w*|creat\w*|respond)/i, 'generation'],
  [/^(action|act|tool\w*|execut\w*|run|call\w*|calculat\w*|comput\w*)/i, 'action'],
  [/^(verif\w*|check\w*|review\w*|validat\w*|test\w*|critique)/i, 'verification'],
  [/^(analy\w*|reason\w*|think\w*|compar\w*|evaluat\w*|assess\w*|plan\w*|decid\w*)/i, 'analysis'],
]

/** A step type from what the model wrote ("Research", "tool_use", "write"); unknown -> analysis. */
export function normaliseType (raw: string): PlanStepType {
  const t = raw.trim().toLowerCase()
  if ((STEP_TYPES as readonly string[]).includes(t)) return t as PlanStepType
  return SYNONYMS.find(([re]) => re.test(t))?.[1] ?? 'analysis'
}

export const roleOf = (type: PlanStepType): PlanStep['role'] => type === 'generation' ? 'drafting' : 'reasoning'

const step = (index: number, type: PlanStepType, description: string): PlanStep => ({ index, type, description, role: roleOf(type) })

const WRITING = /\b(write|draft|compose|rewrite|essay|article|letter|e-?mail|poem|story|blog|speech|summar\w+|translat\w+)\b/i

/** The plan used when planning is off or fails: the task itself, as one step. */
export function oneStepPlan (task: string): PlanStep[] {
  return [step(1, WRITING.test(task) ? 'generation' : 'analysis', task)]
}

function fromItem (item: unknown, index: number): PlanStep | undefined {
  if (typeof item === 'string') return fromLine(item, index)
  if (item === null || typeof item !== 'object') return undefined
  const o = item as Record<string, unknown>
  const description = [o.description, o.task, o.step, o.content, o.title].find((v): v is string => typeof v === 'string' && v.trim() !== '')
  if (description === undefined) return undefined
  const type = [o.type, o.kind, o.subtask_type, o.category].find((v): v is string => typeof v === 'string')
  return step(index, type === undefined ? normaliseType(description) : normaliseType(type), description.trim())
}

/** "[research] find x", "Research: find x", "(analysis) x", or a bare sentence typed by its first verb. */
function fromLine (line: string, index: number): PlanStep | undefined {
  const text = line.trim()
  if (text === '') return undefined
  const tagged = /^\s*(?:\[([\w\s-]+)\]|\(([\w\s-]+)\)|\*\*([\w\s-]+)\*\*:?|([A-Za-z_-]+):)\s*(.+)$/.exec(text)
  if (tagged !== null) {
    const type = tagged[1] ?? tagged[2] ?? tagged[3] ?? tagged[4]
    return step(index, normaliseType(type), tagged[5].trim())
  }
  return step(index, normaliseType(text), text)
}

/** Reads a plan from a model reply; undefined when nothing usable is in it. */
export function parsePlan (text: string, maxSteps: number): PlanStep[] | undefined {
  const json = parseJsonLoose(text)
  let items: unknown[] | undefined
  if (Array.isArray(json)) items = json
  else if (json !== null && typeof json === 'object') {
    const o = json as Record<string, unknown>
    items = [o.steps, o.plan, o.subtasks].find((v): v is unknown[] => Array.isArray(v))
  }
  items ??= listItems(text)
  const steps = items.map((it, i) => fromItem(it, i + 1)).filter((s): s is PlanStep => s !== undefined)
  if (steps.length === 0) return undefined
  return steps.slice(0, maxSteps).map((s, i) => ({ ...s, index: i + 1 }))
}

export const PLAN_SCHEMA = {
  type: 'object',
  properties: {
    steps: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        properties: { type: { type: 'string', enum: STEP_TYPES }, description: { type: 'string' } },
        required: ['type', 'description'],
        additionalProperties: false,
      },
    },
  },
  required: ['steps'],
  additionalProperties: false,
}

export function planPrompt (task: string, maxSteps: number, toolNames: readonly string[]): string {
  return `Break the task below into at most ${maxSteps} steps that, done in order, complete it. A simple task is one step.\n` +
    'Step types: research (gather facts, possibly with tools), analysis (reason over what is known), generation (write the output the user wants), ' +
    'action (do something with a tool), verification (check a result). The last step produces the final answer.\n' +
    (toolNames.length > 0 ? `Tools available: ${toolNames.join(', ')}.\n` : 'No tools are available.\n') +
    'Reply with JSON only: {"steps": [{"type": "...", "description": "..."}]}\n\n' +
    `Task: ${task}`
}

export interface PlanOutcome { steps: PlanStep[], source: 'model' | 'disabled' | 'fallback', error?: string, reply?: StrategyCompletion }

export interface PlannerDeps {
  complete: (req: StrategyCompletionRequest, options?: StrategyCompleteOptions) => Promise<StrategyCompletion>
  jsonMode: boolean
  maxSteps: number
  toolNames: readonly string[]
  /** Errors that must end the run (cancel, timeout, iteration cap) rather than fall back. */
  isFatal: (err: unknown) => boolean
}

export async function makePlan (task: string, enabled: boolean, deps: PlannerDeps): Promise<PlanOutcome> {
  if (!enabled) return { steps: oneStepPlan(task), source: 'disabled' }
  let reply: StrategyCompletion
  try {
    reply = await deps.complete({
      messages: [
        { role: 'system', content: 'You are a planner. You decompose tasks into short, typed steps and answer in JSON.' },
        { role: 'user', content: planPrompt(task, deps.maxSteps, deps.toolNames) },
      ],
      temperature: 0,
      ...(deps.jsonMode ? { response_format: { type: 'json_schema' as const, name: 'plan', schema: PLAN_SCHEMA } } : {}),
    }, { role: 'reasoning', trace: false })
  } catch (err) {
    if (deps.isFatal(err)) throw err
    return { steps: oneStepPlan(task), source: 'fallback', error: `planning call failed: ${(err as Error).message}` }
  }
  const steps = parsePlan(reply.content, deps.maxSteps)
  if (steps === undefined) return { steps: oneStepPlan(task), source: 'fallback', error: 'the planner reply had no usable steps', reply }
  return { steps, source: 'model', reply }
}
