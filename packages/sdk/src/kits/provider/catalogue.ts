// The model catalogue: capability data a provider plugin ships as a JSON file, with
// `data/config.json` `models.overrides` on top. Override keys are a bare model name or
// `provider/model` (the latter wins). A bare-name override changes capabilities only: it
// applies to every provider that serves the model, so it cannot say which provider that
// is; only shipped data or a `provider/model` override makes a provider claim a bare name
// for routing. A model nobody describes gets honest defaults (SPEC.md's ModelCapabilities
// defaults) and `known: false`.
import { readFileSync } from 'node:fs'
import { Type, type Static } from '@agentd/sdk/typebox'
import { check, formatErrors } from '../../kernel/validate.ts'
import { DEFAULT_CAPABILITIES } from './capabilities.ts'
import { CapabilityOverride } from './config.ts'
import type { ModelCapabilities, ModelInfo } from '../../contracts/provider.ts'

// A catalogue entry is what a `models.overrides` entry may say.
const Entry = CapabilityOverride

export const CatalogueFileSchema = Type.Object({
  /** Where the figures come from and when they were checked; for people, not code. */
  source: Type.Optional(Type.String()),
  models: Type.Record(Type.String({ minLength: 1 }), Entry),
}, { additionalProperties: false })

export type CatalogueEntry = Static<typeof Entry>
export type CatalogueFile = Static<typeof CatalogueFileSchema>

/** Reads and validates a catalogue file; a bad file throws with the path of the bad field. */
export function loadCatalogueFile (file: string): CatalogueFile {
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'))
  } catch (err) {
    throw new Error(`Model catalogue ${file} cannot be read: ${(err as Error).message}`)
  }
  const res = check(CatalogueFileSchema, raw)
  if (!res.ok) throw new Error(`Model catalogue ${file} is invalid: ${formatErrors(res.errors)}`)
  return res.value
}

// Snapshot and tag suffixes that name the same model family for capability purposes:
// `gpt-4o-2024-08-06`, `claude-sonnet-4-20250514`, `llama3.2:3b`, `claude-3-5-haiku-latest`.
const SUFFIXES = [/:[^/]+$/, /-\d{4}-\d{2}-\d{2}$/, /-\d{8}$/, /-latest$/]

export class Catalogue {
  readonly provider: string
  readonly #entries: Record<string, CatalogueEntry>
  readonly #overrides: Record<string, CatalogueEntry>

  constructor (provider: string, entries: Record<string, CatalogueEntry> = {}, overrides: Record<string, CatalogueEntry> = {}) {
    this.provider = provider
    this.#entries = entries
    this.#overrides = overrides
  }

  #lookup (table: Record<string, CatalogueEntry>, model: string): CatalogueEntry | undefined {
    if (Object.hasOwn(table, model)) return table[model]
    for (const s of SUFFIXES) {
      const base = model.replace(s, '')
      if (base !== model && Object.hasOwn(table, base)) return table[base]
    }
    return undefined
  }

  #qualified (model: string): CatalogueEntry | undefined {
    return this.#lookup(this.#overrides, `${this.provider}/${model}`)
  }

  #override (model: string): CatalogueEntry | undefined {
    const bare = this.#lookup(this.#overrides, model)
    const qualified = this.#qualified(model)
    return bare === undefined && qualified === undefined ? undefined : { ...bare, ...qualified }
  }

  /**
   * True when this provider claims the bare name for routing: its shipped data lists the
   * model, or a `provider/model` override names this provider. A bare-name override does not count.
   */
  knows (model: string): boolean {
    return this.#lookup(this.#entries, model) !== undefined || this.#qualified(model) !== undefined
  }

  /** True when any figure for the model comes from data rather than defaults (shipped, or any override). */
  describes (model: string): boolean {
    return this.#lookup(this.#entries, model) !== undefined || this.#override(model) !== undefined
  }

  /** True when shipped data or an override gives this field for the model (so nothing learnt from a server replaces it). */
  sets (model: string, field: keyof ModelCapabilities): boolean {
    const shipped = this.#lookup(this.#entries, model)
    const override = this.#override(model)
    return (shipped !== undefined && shipped[field] !== undefined) || (override !== undefined && override[field] !== undefined)
  }

  capabilities (model: string): ModelCapabilities {
    return { ...DEFAULT_CAPABILITIES, ...this.#lookup(this.#entries, model), ...this.#override(model) }
  }

  info (model: string): ModelInfo {
    return { name: model, provider: this.provider, ...this.capabilities(model), known: this.describes(model) }
  }

  /** Model names the shipped data lists, plus overrides qualified with this provider. */
  names (): string[] {
    const prefix = `${this.provider}/`
    const extra = Object.keys(this.#overrides).filter(k => k.startsWith(prefix)).map(k => k.slice(prefix.length))
    return [...new Set([...Object.keys(this.#entries), ...extra])]
  }
}
