// data/memory_settings.json holds two groups of keys (recall settings and consolidation
// settings, DECISIONS.md), each with its own store. Every write goes through here: read the
// file, change only the caller's keys, write it atomically (temp file + rename), one
// write at a time per file in this process, so neither store loses the other's keys.
import { rename, writeFile, mkdir } from 'node:fs/promises'
import { readTextIfExists } from '@agentd/sdk'
import path from 'node:path'

const queues = new Map<string, Promise<unknown>>()

/** The file's object; {} when it does not exist. Throws when it exists but is not a JSON object. */
export async function readSettingsFile (file: string): Promise<Record<string, unknown>> {
  const text = await readTextIfExists(file)
  if (text === undefined) return {}
  let v: unknown
  try { v = JSON.parse(text) } catch (err) { throw new Error(`${file} is not valid JSON (${(err as Error).message}): fix or remove it, then update the settings again`) }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new Error(`${file} is not a JSON object: fix or remove it, then update the settings again`)
  return v as Record<string, unknown>
}

/** Applies `change` to the file's object and writes it back; serialized per file. */
export async function updateSettingsFile (file: string, change: (all: Record<string, unknown>) => void): Promise<void> {
  const run = (queues.get(file) ?? Promise.resolve()).catch(() => {}).then(async () => {
    const all = await readSettingsFile(file)
    change(all)
    await mkdir(path.dirname(file), { recursive: true })
    const tmp = `${file}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2, 8)}.tmp`
    await writeFile(tmp, `${JSON.stringify(all, null, 2)}\n`)
    await rename(tmp, file)
  })
  queues.set(file, run)
  await run
}
