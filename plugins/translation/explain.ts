// The sentence a failed model load turns into: which model could not be fetched or read,
// why, and how to provide it.
import type { HubSource } from '@agentd/sdk/kits/models'

function reason (err: unknown): string {
  const e = err as Error & { cause?: unknown }
  const cause = e.cause instanceof Error ? e.cause.message : undefined
  return cause !== undefined && !e.message.includes(cause) ? `${e.message}: ${cause}` : e.message
}

export function explainLoadFailure (src: HubSource, err: unknown): string {
  if (src.dir !== undefined) {
    return `The translation model could not be loaded from TRANSLATION_MODEL_DIR=${src.dir} (${reason(err)}). ` +
      `Put a copy of ${src.model} there (config.json, tokenizer.json and the onnx/ folder), or unset TRANSLATION_MODEL_DIR to download it from the hub. It is retried on the next translate request.`
  }
  const hub = src.hubUrl ?? 'https://huggingface.co'
  return `The translation model ${src.model} could not be fetched from ${hub} (${reason(err)}). ` +
    `To provide it: copy the model folder (config.json, tokenizer.json, onnx/) to this machine and set TRANSLATION_MODEL_DIR to it, ` +
    'or let this machine reach the hub (set HF_TOKEN if the model is gated). Another option: the translation plugin option backend: "chat" translates with the chat model. ' +
    'It is retried on the next translate request.'
}
