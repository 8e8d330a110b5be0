// What /v1 runs that the chat plugin runs too: model resolution, the tool set, the tool
// loop, context fitting and memory. One place for these imports, so the OpenAI-compatible
// API is the same flow as /api/agent/chat, not a copy of it.
export { resolveModel } from '../providers-api/resolve-model.ts'
export { runToolLoop, type LoopEvent, type ToolLoopResult } from '../chat/tool-loop.ts'
export { collectToolSet, type ToolFilter, type ToolSet } from '../chat/tools.ts'
export { ChatMemory, fitToBudget, promptBudget, type TurnToStore } from '@agentd/sdk/kits/conversation'
