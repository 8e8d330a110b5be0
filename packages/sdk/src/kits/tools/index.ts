// The tools kit: calling tools the way chat and agent runs do. `collectToolSet` gathers
// every registered tool source's tools (allowed/blocked lists applied, first source wins a
// name, per-call time limit, failures returned to the model as error results);
// `runToolLoop` is the tool-use loop (model call, tool calls, results, again; think
// parser on every reply; round cap); `toolCallWithHooks` runs one call with the
// tool:before / tool:after hooks.
export { collectToolSet, isAllowed, type ToolFilter, type ToolSet } from './tool-set.ts'
export { runToolLoop, DEFAULT_MAX_TOOL_ROUNDS, type LoopEvent, type ToolLoopOptions, type ToolLoopResult } from './tool-loop.ts'
export { toolCallWithHooks, type ToolCallContext } from './tool-hooks.ts'
export { toolLoopOptions } from './options.ts'
