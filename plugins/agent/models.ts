// Which model serves each role of a run (AgentConfig): resolved once when the run starts,
// so a bad model id is a 400 before any work, and a run never switches models midway.
import type { FastifyInstance } from 'fastify'
import type { ModelCapabilities, Provider } from '@agentd/sdk/contracts/provider'
import type { ModelRole } from '@agentd/sdk/contracts/strategy'
import type { RunConfig } from './options.ts'
import { modelResolver } from '@agentd/sdk/kits/provider'

export interface RoleModel {
  /** From the model resolver: wrapped in the provider middleware (provider hooks, abort, limits). */
  provider: Provider
  /** Model name as the provider knows it. */
  model: string
  /** `provider/model`, as listed in models_used. */
  id: string
  capabilities: ModelCapabilities
}

export type ConcreteRole = Exclude<ModelRole, 'step'>

export interface RoleModels { reasoning: RoleModel, drafting: RoleModel, default: RoleModel }

/** The model spec each role uses: reasoning/drafting models only when enabled and set. */
export function roleSpecs (cfg: RunConfig): Record<ConcreteRole, string> {
  return {
    default: cfg.default_model,
    reasoning: cfg.enable_reasoning && cfg.reasoning_model !== null ? cfg.reasoning_model : cfg.default_model,
    drafting: cfg.enable_drafting && cfg.drafting_model !== null ? cfg.drafting_model : cfg.default_model,
  }
}

export function resolveRoles (app: FastifyInstance, cfg: RunConfig): RoleModels {
  const specs = roleSpecs(cfg)
  const cache = new Map<string, RoleModel>()
  const resolver = modelResolver(app, 'The agent plugin')
  const one = (spec: string): RoleModel => {
    const hit = cache.get(spec)
    if (hit !== undefined) return hit
    // Resolution is the providers' rule (DECISIONS.md "Model ids"): 400 unknown provider, 503 none loaded.
    const { provider, model, id, capabilities } = resolver.resolve(spec)
    const resolved: RoleModel = { provider, model, id, capabilities }
    cache.set(spec, resolved)
    return resolved
  }
  return { default: one(specs.default), reasoning: one(specs.reasoning), drafting: one(specs.drafting) }
}
