// The prompt service: how a plugin that talks to a model (chat, the OpenAI-compatible API,
// a third party's protocol) gets its system prompt. One plugin registers it (prompts); the
// others look it up through `app.registry.promptComposers.first()` (the conversation kit's
// `promptComposer(app, who)`) and declare the dependency on that plugin.

export interface ComposeInput {
  /** A profile id; omitted (or "default") means the profile marked is_default. */
  profile_id?: string
  /** The tool-server tools prompt; the service fills it from every tool source when omitted. */
  tools_prompt?: string
  additional_context?: string
  /** Rendered memory recall, injected last. */
  memory_context?: string
  /** Replaces the whole composed prompt when non-empty. */
  system_override?: string
}

export interface ComposedPrompt {
  system_prompt: string
  /** The profile actually used, or null when there are no profiles. */
  profile_id: string | null
}

export interface PromptComposer {
  /** Throws a 404-class error for an unknown profile id (undefined or "default": the default profile). */
  checkProfile: (id?: string) => void
  compose: (input: ComposeInput) => Promise<ComposedPrompt>
}

declare module '../kernel/registry.ts' {
  interface Capabilities { promptComposers: PromptComposer }
}
