// The agent card (/.well-known/agent-card.json): who agentd is, where its JSON-RPC
// endpoint is (A2A 1.0, and 0.3 for older peers, on the same URL), what it can do
// (streaming yes, push notifications no) and, when the server requires an API key, the
// scheme clients must use: `X-API-Key` (Authorization: Bearer works too, as on every route).
import { AgentCard as AgentCardJson, type AgentCard, type AgentSkill, type SecurityScheme } from '@a2a-js/sdk'
import type { A2AOptions } from './options.ts'

const skill = (id: string, name: string, description: string, tags: string[], examples: string[]): AgentSkill =>
  ({ id, name, description, tags, examples, inputModes: ['text/plain'], outputModes: ['text/plain'], securityRequirements: [] })

const SKILLS: AgentSkill[] = [
  skill('chat', 'Chat with memory', 'A conversation turn with agentd\'s model, prompt profiles, tools and long-term memory; the contextId is the session (messages of one context remember each other). Metadata: channel (memory channel), use_memory, model (provider/model), profile_id.', ['chat', 'memory', 'tools'], ['What did I tell you about my project yesterday?']),
  skill('agent-run', 'Agent run', 'A full agent run: plan the task, solve it with a reasoning strategy (metadata reasoning_strategy: auto, cot, tot, react, reflection) and tools. Send metadata { "skill": "agent-run" }.', ['agent', 'planning', 'reasoning'], ['Compare three approaches to caching and recommend one.']),
  skill('translate', 'Translation', 'Translates the text to metadata target_language (an NLLB-200 code such as fra_Latn; source_language optional, else detected). Send metadata { "skill": "translate" }.', ['translation', 'language'], ['Translate "good morning" to French.']),
]

const API_KEY: SecurityScheme = {
  scheme: { $case: 'apiKeySecurityScheme', value: { description: 'The server\'s API key (AGENT_API_KEY); Authorization: Bearer <key> is accepted too.', location: 'header', name: 'X-API-Key' } },
}

export function buildCard (opts: A2AOptions, version: string, baseUrl: string, keyRequired: boolean): AgentCard {
  const url = `${baseUrl}${opts.path}`
  return {
    name: opts.name,
    description: opts.description,
    supportedInterfaces: [
      { url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
      { url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '0.3' },
    ],
    provider: undefined,
    version,
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: keyRequired ? { apiKey: API_KEY } : {},
    securityRequirements: keyRequired ? [{ schemes: { apiKey: { list: [] } } }] : [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: SKILLS,
    signatures: [],
  }
}

/** The card as A2A's JSON (the SDK's own encoding). */
export const cardJson = (card: AgentCard): unknown => AgentCardJson.toJSON(card)
