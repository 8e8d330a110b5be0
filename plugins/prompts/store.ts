// Holds the prompts file in memory: seeds it from the shipped default when missing,
// validates every read (a bad edit keeps the last good version and says why), and
// writes updates atomically while keeping the file's comments and layout.
import { readFile, writeFile, rename, mkdir, copyFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import YAML from 'yaml'
import { check, formatErrors } from '@agentd/sdk'
import { PromptsFileSchema, type GlobalPrompt, type PromptProfile, type PromptSection, type PromptsFile } from './schema.ts'
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
    // In line with the edits: a read that began before an edit's rename and ended after it
    // would otherwise put the older version back over the edit just answered.
    const p = this.#writeChain.then(async () => await this.#reload())
    this.#writeChain = p.catch(() => undefined)
    return await p
  }

  async #reload (): Promise<boolean> {
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
    return await this.#edit('updating the global prompt', (doc) => {
      if (patch.content !== undefined) doc.setIn(['global_prompt', 'content'], patch.content)
      if (patch.enabled !== undefined) doc.setIn(['global_prompt', 'enabled'], patch.enabled)
      return (file) => file.global_prompt
    })
  }

  /** Adds a profile at the end of the list (409 when the id is taken). */
  async createProfile (profile: PromptProfile): Promise<PromptProfile> {
    return await this.#edit('creating a profile', (doc, raw) => {
      if (raw.profiles.some(p => p.id === profile.id)) throw new PromptErrors.PROFILE_EXISTS(profile.id, profile.id)
      if (profile.is_default) clearDefaults(doc, raw)
      if (!doc.has('profiles') || !YAML.isSeq(doc.get('profiles'))) doc.set('profiles', doc.createNode([]))
      doc.addIn(['profiles'], doc.createNode(profile))
      return (file) => findProfile(file, profile.id)
    })
  }

  /** Changes the given fields of a profile; `sections` replaces the whole list. */
  async updateProfile (id: string, patch: ProfilePatch): Promise<PromptProfile> {
    return await this.#edit('updating a profile', (doc, raw) => {
      const i = indexOf(raw, id)
      if (patch.is_default === false && effectiveDefault(raw) === id) {
        throw new PromptErrors.DEFAULT_PROFILE_REQUIRED(`"${id}" is the default profile; set is_default: true on another profile to change the default.`)
      }
      if (patch.is_default === true) clearDefaults(doc, raw)
      if (patch.name !== undefined) doc.setIn(['profiles', i, 'name'], patch.name)
      if (patch.description !== undefined) doc.setIn(['profiles', i, 'description'], patch.description)
      if (patch.is_default !== undefined) doc.setIn(['profiles', i, 'is_default'], patch.is_default)
      if (patch.sections !== undefined) doc.setIn(['profiles', i, 'sections'], doc.createNode(patch.sections))
      return (file) => findProfile(file, id)
    })
  }

  /** Removes a profile; the default (or the only) profile cannot be removed. */
  async deleteProfile (id: string): Promise<void> {
    await this.#edit('deleting a profile', (doc, raw) => {
      const i = indexOf(raw, id)
      if (raw.profiles.length === 1) throw new PromptErrors.DEFAULT_PROFILE_REQUIRED(`"${id}" is the only profile; create another profile before deleting it.`)
      if (effectiveDefault(raw) === id) throw new PromptErrors.DEFAULT_PROFILE_REQUIRED(`"${id}" is the default profile; make another profile the default (is_default: true) before deleting it.`)
      doc.deleteIn(['profiles', i])
      return () => undefined
    })
  }

  /**
   * One edit of the file, serialized with the others: the file's YAML document is changed
   * in place (its comments kept), the result validated whole, written to a temporary file
   * and renamed over the original. Nothing is written unless every check passed.
   */
  async #edit<T> (what: string, change: (doc: YAML.Document, raw: PromptsFile) => (file: PromptsFile) => T): Promise<T> {
    const run = async (): Promise<T> => {
      const text = await readFile(this.file, 'utf8').catch(() => '')
      const doc = YAML.parseDocument(text === '' ? YAML.stringify(this.#current) : text)
      if (doc.errors.length > 0) throw new PromptErrors.INVALID_FILE(`${this.file} is not valid YAML (${doc.errors[0].message}); fix it before ${what}.`)
      // The file as it is on disk, validated: the edit applies to it, not to an older copy.
      const raw = parsePromptsFile(text === '' ? YAML.stringify(this.#current) : text, this.file)
      const result = change(doc, raw)
      const next = doc.toString()
      const parsed = parsePromptsFile(next, this.file)
      const tmp = `${this.file}.${process.pid}.${Date.now()}.tmp`
      await writeFile(tmp, next)
      await rename(tmp, this.file)
      this.#current = parsed
      this.#lastError = undefined
      return result(parsed)
    }
    const p = this.#writeChain.then(run, run)
    this.#writeChain = p.catch(() => undefined)
    return await p
  }
}

export interface ProfilePatch {
  name?: string
  description?: string
  is_default?: boolean
  sections?: PromptSection[]
}

function indexOf (file: PromptsFile, id: string): number {
  const i = file.profiles.findIndex(p => p.id === id)
  if (i < 0) throw new PromptErrors.UNKNOWN_PROFILE(id, file.profiles.map(p => p.id).join(', ') || 'none')
  return i
}

function findProfile (file: PromptsFile, id: string): PromptProfile {
  return file.profiles[indexOf(file, id)]
}

/** The profile a request without profile_id gets (compose.ts's rule). */
function effectiveDefault (file: PromptsFile): string | undefined {
  return (file.profiles.find(p => p.is_default) ?? file.profiles.find(p => p.id === 'default') ?? file.profiles[0])?.id
}

/** Clears every is_default flag, so that the profile being edited can take it. */
function clearDefaults (doc: YAML.Document, file: PromptsFile): void {
  file.profiles.forEach((p, i) => { if (p.is_default) doc.setIn(['profiles', i, 'is_default'], false) })
}
