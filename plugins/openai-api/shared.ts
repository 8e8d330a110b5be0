// What /v1 runs that the chat plugin runs too: the model resolver (providers-api's
// service, handing out providers wrapped in the provider middleware), the tools kit's
// tool set and tool loop, and the conversation kit's context fitting and memory calls.
// One place for these imports, so the OpenAI-compatible API is the same flow as
// /api/agent/chat, not a copy of it.
export { modelResolver } from '@agentd/sdk/kits/provider'
export { collectToolSet, runToolLoop, type LoopEvent, type ToolFilter, type ToolLoopResult, type ToolSet } from '@agentd/sdk/kits/tools'
export { ChatMemory, fitToBudget, promptBudget, type TurnToStore } from '@agentd/sdk/kits/conversation'
