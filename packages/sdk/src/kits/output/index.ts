// The model-output kit: reading what a model wrote. The think parser separates reasoning
// (`<think>`, `<thinking>`, `<reasoning>`, `<reflection>` blocks, native reasoning) from
// the answer, streamed or whole; `parseJsonLoose` finds JSON in prose or fences;
// `listItems` reads numbered or bulleted lines. Chat, the agent and every strategy read
// model output with these, so a tag never reaches an answer anywhere.
export { THINK_TAGS, ThinkParser, splitThinking, type ThinkPiece } from './think.ts'
export { parseJsonLoose, listItems } from './text.ts'
