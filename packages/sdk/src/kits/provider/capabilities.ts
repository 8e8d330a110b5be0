// SPEC.md's ModelCapabilities defaults: what a model nobody describes is assumed to do.
import type { ModelCapabilities } from '../../contracts/provider.ts'

export const DEFAULT_CAPABILITIES: Readonly<ModelCapabilities> = Object.freeze({
  supports_tools: false,
  supports_vision: false,
  supports_streaming: true,
  supports_json_mode: false,
  context_window: 4096,
  max_output_tokens: null,
  cost_per_1k_input: null,
  cost_per_1k_output: null,
})
