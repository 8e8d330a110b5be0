// Configuration as a plugin reads it. The environment is `.env` from the working folder
// with the real variables over it; a lookup goes config file, then environment, then
// default (SPEC.md). The kernel builds one view per generation.
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { parse as parseDotEnv } from 'dotenv'
import type { Env, ServerSettings } from './plugin.ts'

/** The environment with `.env` from `cwd` underneath it. */
export function loadEnv (cwd: string, env: NodeJS.ProcessEnv = process.env): Env {
  const file = path.join(cwd, '.env')
  const fromFile = existsSync(file) ? parseDotEnv(readFileSync(file)) : {}
  return Object.freeze({ ...fromFile, ...env })
}

/** A generation's read-only view of configuration. */
export class ConfigView {
  readonly env: Env
  readonly settings: ServerSettings
  readonly file: Readonly<Record<string, unknown>>

  constructor (env: Env, settings: ServerSettings, file: Record<string, unknown>) {
    this.env = env
    this.settings = settings
    this.file = Object.freeze(structuredClone(file))
  }

  /** A value at a dotted path in data/config.json, or undefined. */
  fromFile (dotted: string): unknown {
    let cur: unknown = this.file
    for (const part of dotted.split('.')) {
      if (cur === null || typeof cur !== 'object') return undefined
      cur = (cur as Record<string, unknown>)[part]
    }
    return cur
  }

  /** Config file, then environment variable, then default. */
  lookup (dotted: string, envVar?: string, dflt?: string): string | undefined {
    const v = this.fromFile(dotted)
    if (v !== undefined && v !== null && v !== '') return String(v)
    const e = envVar === undefined ? undefined : this.env[envVar]
    if (e !== undefined && e !== '') return e
    return dflt
  }

  lookupNumber (dotted: string, envVar: string | undefined, dflt: number): number {
    const v = this.lookup(dotted, envVar)
    const n = v === undefined ? NaN : Number(v)
    return Number.isFinite(n) ? n : dflt
  }
}

