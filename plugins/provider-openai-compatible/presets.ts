// What each built-in instance name means. A custom instance (Groq, Together, DeepSeek,
// vLLM on another box) needs none of this: its name, base_url and api_key_env suffice.
import type { WireQuirks } from './convert.ts'

export interface Preset {
  quirks?: WireQuirks
  defaultUrl?: string
  keyEnv?: string
  urlEnv?: string
  timeoutEnv?: string
  keyRequired: boolean
  /** Seconds. */
  timeout: number
  listModels: 'server' | 'catalogue'
  /** Catalogue file name in ./catalogue. */
  catalogue?: string
  headers?: Record<string, string>
  /** Ask the server about models the catalogue does not describe (Ollama's /api/show, LM Studio's /api/v0/models): self-hosted servers only. */
  probeModels?: boolean
  /** Other names under `providers` in data/config.json that configure this preset (read after the instance's own). */
  configAliases?: readonly string[]
  /** Bare model names this instance claims by their shape (DECISIONS.md "Model ids"). */
  claims?: RegExp
  /** Path of the health call when GET /models proves nothing (it is public on OpenRouter, so it would not check the key). */
  healthPath?: string
}

export const PRESETS: Record<'openai' | 'openrouter' | 'local' | 'custom', Preset> = {
  openai: {
    defaultUrl: 'https://api.openai.com/v1',
    keyEnv: 'OPENAI_API_KEY',
    urlEnv: 'OPENAI_BASE_URL',
    keyRequired: true,
    timeout: 120,
    listModels: 'catalogue',
    catalogue: 'openai.json',
    quirks: { maxTokensField: 'max_completion_tokens', fixedSampling: /^(o\d|gpt-5)/ },
    claims: /^(?:gpt-|chatgpt-|o[1-4](?:$|-))/i,
  },
  openrouter: {
    defaultUrl: 'https://openrouter.ai/api/v1',
    keyEnv: 'OPENROUTER_API_KEY',
    urlEnv: 'OPENROUTER_BASE_URL',
    keyRequired: true,
    timeout: 120,
    listModels: 'catalogue',
    catalogue: 'openrouter.json',
    // OpenRouter's app attribution (https://openrouter.ai/docs/api-reference/overview#headers).
    headers: { 'HTTP-Referer': 'https://github.com/agentd/agentd', 'X-Title': 'agentd' },
    // GET /key describes the calling key: free, and it fails on a bad key.
    healthPath: '/key',
  },
  local: {
    // An Ollama by default; LM Studio (:1234/v1), vLLM (:8000/v1) and llama.cpp (:8080/v1) work the same.
    defaultUrl: 'http://localhost:11434/v1',
    urlEnv: 'LOCAL_MODEL_URL',
    keyEnv: 'LOCAL_MODEL_API_KEY',
    timeoutEnv: 'LOCAL_MODEL_TIMEOUT',
    keyRequired: false,
    // SPEC.md: 300 s is the runtime default; the environment template (.env.example) sets
    // LOCAL_MODEL_TIMEOUT=600. Lookup: providers.local.timeout, then LOCAL_MODEL_TIMEOUT, then this.
    timeout: 300,
    listModels: 'server',
    catalogue: 'local.json',
    // The original system's web client saves the local server under `providers.lmstudio`.
    configAliases: ['lmstudio'],
    probeModels: true,
    // Ollama's `name:tag`.
    claims: /:/,
  },
  custom: {
    keyRequired: false,
    timeout: 120,
    listModels: 'server',
    probeModels: true,
  },
}

export type PresetName = keyof typeof PRESETS
export const isPresetName = (s: string): s is PresetName => Object.hasOwn(PRESETS, s)
