// The model-resolution service: how a plugin that calls models (chat, agent, translation,
// a third party's) turns a model id into a provider it can call. One plugin registers it
// (providers-api); the others look it up through `app.registry.modelResolvers.first()` at
// request time and declare the dependency on that plugin.
//
// The provider a resolver returns is already wrapped in the provider middleware, so every
// caller gets the same cross-cutting work without doing it itself: the `provider:before`
// and `provider:after` hooks, a per-call time limit, abort honoured even by a provider that
// ignores its signal, and `usage` on every result (estimated and marked when the upstream
// reported none).
import type { ModelCapabilities, Provider } from './provider.ts'

export interface ResolvedModel {
  /** The provider, wrapped in the middleware. Call it with `model`, not with the id. */
  provider: Provider
  /** The provider's id (its name in plugins.json). */
  providerId: string
  /** The model name as the provider knows it (no `provider/` prefix). */
  model: string
  /** `provider/model`, as results and traces report it. */
  id: string
  capabilities: ModelCapabilities
}

export interface ModelResolver {
  /**
   * Resolves a model id (DECISIONS.md "Model ids"), or the default model when `spec` is
   * empty. Throws 400 for a provider that is not loaded (the message lists the loaded
   * ones) and 503 when no provider is loaded. It does not check that the provider is
   * configured: calling it gives the 503 that says which key to set.
   */
  resolve: (spec?: string | null) => ResolvedModel
  /** The configured default model id (`preferences.default_model`, then DEFAULT_MODEL). */
  defaultModel: () => string
}

declare module '../kernel/registry.ts' {
  interface Capabilities { modelResolvers: ModelResolver }
}
