// The conversation a strategy starts from for one plan step: a system prompt with the
// agent's persona, the whole task, the plan and earlier steps' results, then the step.
import type { Message } from '@agentd/sdk/contracts/provider'
import type { PlanStep, StepOutcome } from '@agentd/sdk/contracts/strategy'

export function stepMessages (input: { name: string, task: string, plan: readonly PlanStep[], step: PlanStep, previous: readonly StepOutcome[] }): Message[] {
  const { name, task, plan, step, previous } = input
  if (plan.length === 1) {
    return [
      { role: 'system', content: `You are ${name}, an agent that carries out the user's task carefully and answers accurately.` },
      { role: 'user', content: task },
    ]
  }
  const planText = plan.map(s => `${s.index}. [${s.type}] ${s.description}`).join('\n')
  const done = previous.map(o => `### Step ${o.step.index} (${o.step.type}): ${o.step.description}\n${o.answer}`).join('\n\n')
  const last = step.index === plan.length
  return [
    {
      role: 'system',
      content: `You are ${name}, an agent that carries out a task one plan step at a time.\n\nThe whole task: ${task}\n\nThe plan:\n${planText}` +
        (done === '' ? '' : `\n\nResults of the earlier steps:\n\n${done}`),
    },
    {
      role: 'user',
      content: `Do step ${step.index} of ${plan.length} (${step.type}): ${step.description}` +
        (last ? '\nThis is the last step: your reply is the final answer to the whole task.' : '\nReply with this step\'s result only.'),
    },
  ]
}
