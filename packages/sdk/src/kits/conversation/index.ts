// The conversation kit: what a plugin that holds a conversation with a model needs around
// each turn, shared by the chat plugin and the OpenAI-compatible API. `fitToBudget` trims
// history, a whole turn at a time, to the model's context window (`promptBudget`);
// `capHistory` bounds a stored session; `ChatMemory` recalls for the new message and
// stores the turns, failure-tolerant and bounded in time.
export { capHistory, estimateTokens, estimateToolTokens, fitToBudget, promptBudget, turnsOf, type FitResult } from './trim.ts'
export { ChatMemory, type TurnToStore } from './turn-memory.ts'
export { runConversation, promptComposer, NoPromptComposer, type ConversationRequest, type ConversationResult, type ConversationDeps, type ConversationMiddleware, type ConversationStage } from './pipeline.ts'
