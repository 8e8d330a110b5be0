// Holds the prompts file in memory: seeds it from the shipped default when missing,
// validates every read (a bad edit keeps the last good version and says why), and
// writes updates atomically while keeping the file's comments and layout.
import { readFile, writeFile, rename, mkdir, copyFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import YAML from 'yaml'
import { check, formatErrors } from '@agentd/sdk'
import { PromptsFileSchema, type GlobalPrompt, type PromptsFile } from './schema.ts'
import { PromptErrors } from './errors.ts'

/** The default shipped in the repository (data/system_prompts.yaml). */
export const SHIPPED_DEFAULT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'data', 'system_prompts.yaml')

/** Rules TypeBox cannot say: unique ids, at most one default profile. */
function semanticErrors (file: PromptsFile): string[] {
  const errors: string[] = []
  const ids = new Set<string>()
  file.profiles.forEach((p, i) => {
    if (ids.has(p.id)) errors.push(`profiles.${i}.id: "${p.id}" is used by another profile`)
    ids.add(p.id)
    const sids = new Set<string>()
    p.sections.forEach((s, j) => {
      if (sids.has(s.id)) errors.push(`profiles.${i}.sections.${j}.id: "${s.id}" is used twice in profile "${p.id}"`)
      sids.add(s.id)
    })
  })
  const defaults = file.profiles.filter(p => p.is_default).map(p => p.id)
  if (defaults.length > 1) errors.push(`profiles: only one profile may have is_default: true (found ${defaults.join(', ')})`)
  return errors
}

/** Parses and validates the text of a prompts file; throws a 422-class error naming the bad fields. */
export function parsePromptsFile (text: string, file: string): PromptsFile {
  let raw: unknown
  try {
    raw = YAML.parse(text)
  } catch (err) {
    throw new PromptErrors.INVALID_FILE(`${file} is not valid YAML: ${(err as Error).message}`)
  }
  const res = check(PromptsFileSchema, raw ?? {})
  if (!res.ok) throw new PromptErrors.INVALID_FILE(`${file} is invalid: ${formatErrors(res.errors)}. Fix the file; the last valid version stays in use.`)
  const extra = semanticErrors(res.value)
  if (extra.length > 0) throw new PromptErrors.INVALID_FILE(`${file} is invalid: ${extra.join('; ')}. Fix the file; the last valid version stays in use.`)
  return res.value
}

export class PromptStore {
  readonly file: string
  #current: PromptsFile
  #lastError: string | undefined
  #writeChain: Promise<unknown> = Promise.resolve()
  readonly #onError: (message: string) => void

  private constructor (file: string, current: PromptsFile, onError: (message: string) => void) {
    this.file = file
    this.#current = current
    this.#onError = onError
  }

  /** Opens the file, seeding it from the shipped default when it does not exist. */
  static async open (file: string, onError: (message: string) => void): Promise<PromptStore> {
    if (!existsSync(file)) {
      await mkdir(path.dirname(file), { recursive: true })
      await copyFile(SHIPPED_DEFAULT, file)
    }
    const current = parsePromptsFile(await readFile(file, 'utf8'), file)
    return new PromptStore(file, current, onError)
  }

  get current (): PromptsFile { return this.#current }
  /** Why the last reload was refused, if it was. */
  get lastError (): string | undefined { return this.#lastError }

  /** Re-reads the file; an invalid or missing file keeps the last good version. */
  async reload (): Promise<boolean> {
    try {
      this.#current = parsePromptsFile(await readFile(this.file, 'utf8'), this.file)
      this.#lastError = undefined
      return true
    } catch (err) {
      this.#lastError = (err as Error).message
      this.#onError(this.#lastError)
      return false
    }
  }

  /** Changes the global prompt and persists it; comments and the rest of the file are kept. */
  async updateGlobal (patch: Partial<GlobalPrompt>): Promise<GlobalPrompt> {
    const run = async (): Promise<GlobalPrompt> => {
      const text = await readFile(this.file, 'utf8').catch(() => '')
      const doc = YAML.parseDocument(text === '' ? YAML.stringify(this.#current) : text)
      if (doc.errors.length > 0) throw new PromptErrors.INVALID_FILE(`${this.file} is not valid YAML (${doc.errors[0].message}); fix it before updating the global prompt.`)
      if (patch.content !== undefined) doc.setIn(['global_prompt', 'content'], patch.content)
      if (patch.enabled !== undefined) doc.setIn(['global_prompt', 'enabled'], patch.enabled)
      const next = doc.toString()
      const parsed = parsePromptsFile(next, this.file)
      const tmp = `${this.file}.${process.pid}.${Date.now()}.tmp`
      await writeFile(tmp, next)
      await rename(tmp, this.file)
      this.#current = parsed
      this.#lastError = undefined
      return parsed.global_prompt
    }
    const p = this.#writeChain.then(run, run)
    this.#writeChain = p.catch(() => undefined)
    return await p
  }
}
