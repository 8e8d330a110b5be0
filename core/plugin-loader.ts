// Reads plugins.json, imports every module it names, validates every plugin's options and
// orders them by their dependencies. Nothing is registered here: a plan either comes out
// whole or the call throws a PluginLoadError that names the file, the plugin and the fix.
import { readFile } from 'node:fs/promises'
import { existsSync, statSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL, fileURLToPath } from 'node:url'
import type { TSchema } from '@agentd/sdk/typebox'
import type { FastifyPluginAsync, FastifyPluginCallback } from 'fastify'
import { PluginsFileSchema, type ConfigSections, type PluginEntry } from './config-schema.ts'
import { check, formatErrors } from '@agentd/sdk'

export class PluginLoadError extends Error {
  readonly plugin: string | undefined
  readonly module: string | undefined
  constructor (message: string, plugin?: string, cause?: unknown, module?: string) {
    super(message, cause === undefined ? undefined : { cause })
    this.name = 'PluginLoadError'
    this.plugin = plugin
    this.module = module
  }
}

// What a plugin module exports: `default` is a Fastify plugin (usually fp-wrapped);
// `options` (a TypeBox schema) and `version` are optional.
export interface PluginModule {
  default: FastifyPluginAsync<any> | FastifyPluginCallback<any> // eslint-disable-line @typescript-eslint/no-explicit-any -- a module's plugin type is only known at run time
  options?: TSchema
  /** Sections of data/config.json this module owns, validated with the whole file. */
  config?: ConfigSections
  version?: string
}

export interface PlannedPlugin {
  name: string
  module: string
  resolved: string
  enabled: boolean
  version: string
  plugin?: PluginModule['default']
  options: Record<string, unknown>
  dependencies: string[]
  config?: ConfigSections
}

const PLUGIN_META = Symbol.for('plugin-meta')

interface FpMeta { name?: string, dependencies?: string[] }

function metaOf (plugin: unknown): FpMeta {
  return ((plugin as Record<symbol, FpMeta> | undefined)?.[PLUGIN_META]) ?? {}
}

function isRelative (spec: string): boolean {
  return spec.startsWith('./') || spec.startsWith('../') || path.isAbsolute(spec)
}

function resolveFile (base: string): string | undefined {
  const candidates = [base, `${base}.ts`, `${base}.js`, `${base}.mjs`, path.join(base, 'index.ts'), path.join(base, 'index.js'), path.join(base, 'index.mjs')]
  return candidates.find(c => existsSync(c) && statSync(c).isFile())
}

function nearestPackageVersion (file: string): string | undefined {
  let dir = path.dirname(file)
  for (;;) {
    const pkg = path.join(dir, 'package.json')
    if (existsSync(pkg)) {
      try { return (JSON.parse(readFileSync(pkg, 'utf8')) as { version?: string }).version } catch { return undefined }
    }
    const up = path.dirname(dir)
    if (up === dir) return undefined
    dir = up
  }
}

// When the kernel runs compiled (`npm start` runs dist/), a plugins.json path into the
// source tree (./plugins/chat) loads that plugin's compiled twin under dist/.
const HERE = path.dirname(fileURLToPath(import.meta.url))
const COMPILED_ROOT = path.basename(HERE) === 'core' && path.basename(path.dirname(HERE)) === 'dist' && import.meta.url.endsWith('.js')
  ? path.dirname(path.dirname(HERE))
  : undefined

/**
 * The file plain Node can load for a plugin module: compiled (`compiledRoot` set), a .ts
 * file in the source tree loads its twin under dist/, one elsewhere its JavaScript beside it
 * (index.js or index.mjs, what `tsc` or esbuild wrote), and with neither the load fails
 * saying how to ship it. From sources (tsx) every file loads as it is.
 */
export function runnableFile (file: string, compiledRoot: string | undefined): string {
  if (compiledRoot === undefined || !file.endsWith('.ts')) return file
  const rel = path.relative(compiledRoot, file)
  const twin = path.join(compiledRoot, 'dist', rel.replace(/\.ts$/, '.js'))
  if (!rel.startsWith('..') && !path.isAbsolute(rel) && existsSync(twin)) return twin
  const beside = [file.replace(/\.ts$/, '.js'), file.replace(/\.ts$/, '.mjs')].find(f => existsSync(f))
  if (beside !== undefined) return beside
  throw new Error(`${file} is TypeScript, which plain Node cannot load (\`npm start\` runs compiled JavaScript). Compile the plugin to JavaScript beside it (e.g. \`npx esbuild ${path.basename(file)} --format=esm --platform=node --outfile=${path.basename(file).replace(/\.ts$/, '.js')}\` in its folder, or tsc), ` +
    'or run the server from sources with `npm run dev`. docs/plugins.md "Shipping a plugin".')
}

/** A relative module resolves against the folder of plugins.json; anything else is an npm package name. */
export async function resolveModule (spec: string, pluginsFile: string): Promise<string> {
  const baseDir = path.dirname(pluginsFile)
  if (isRelative(spec)) {
    const file = resolveFile(path.resolve(baseDir, spec))
    if (file === undefined) throw new Error(`no file or folder with an index at ${path.resolve(baseDir, spec)}`)
    return runnableFile(file, COMPILED_ROOT)
  }
  // Imported only for a package name: the shipped plugins.json names folders, and this
  // module (six files) would otherwise load before the server first answers.
  const { moduleResolve } = await import('import-meta-resolve')
  const resolvePackage = (dir: string): string | undefined => {
    try {
      return fileURLToPath(moduleResolve(spec, pathToFileURL(path.join(dir, 'plugins.json')), new Set(['node', 'import'])))
    } catch { return undefined }
  }
  const found = resolvePackage(baseDir) ?? resolvePackage(HERE)
  if (found === undefined) throw new Error(`npm package "${spec}" is not installed; run \`npm install ${spec}\``)
  return found
}

async function importModule (file: string): Promise<PluginModule> {
  const mod = await import(pathToFileURL(file).href) as Partial<PluginModule>
  if (typeof mod.default !== 'function') throw new Error('it has no default export that is a Fastify plugin function')
  return mod as PluginModule
}

/** Orders plugins so each comes after its dependencies; a cycle or a missing dependency throws. */
export function orderByDependencies (plugins: PlannedPlugin[]): PlannedPlugin[] {
  const byName = new Map(plugins.map(p => [p.name, p]))
  const out: PlannedPlugin[] = []
  const state = new Map<string, 'visiting' | 'done'>()
  const visit = (p: PlannedPlugin, trail: string[]): void => {
    const s = state.get(p.name)
    if (s === 'done') return
    if (s === 'visiting') {
      const cycle = [...trail.slice(trail.indexOf(p.name)), p.name]
      throw new PluginLoadError(`plugins.json has a dependency cycle: ${cycle.join(' -> ')}. Remove one of these dependencies.`, p.name)
    }
    state.set(p.name, 'visiting')
    for (const dep of p.dependencies) {
      const d = byName.get(dep)
      if (d === undefined) {
        throw new PluginLoadError(`Plugin "${p.name}" depends on "${dep}", which is not in plugins.json. Add it, or remove the dependency.`, p.name)
      }
      if (!d.enabled) {
        throw new PluginLoadError(`Plugin "${p.name}" depends on "${dep}", which is disabled. Enable "${dep}" or disable "${p.name}".`, p.name)
      }
      visit(d, [...trail, p.name])
    }
    state.set(p.name, 'done')
    out.push(p)
  }
  for (const p of plugins.filter(p => p.enabled)) visit(p, [])
  return [...out, ...plugins.filter(p => !p.enabled)]
}

/**
 * Keys of `options` that an object schema does not declare. A schema that says nothing
 * about extra keys would let a misspelt option (`defualt_timezone`) pass silently and its
 * default apply; the loader refuses it the way `additionalProperties: false` would.
 * Schemas that are not plain objects (unions, intersections) are left to their own rules.
 */
export function undeclaredOptionKeys (schema: TSchema, options: Record<string, unknown>): string[] {
  const s = schema as { type?: unknown, properties?: Record<string, unknown>, additionalProperties?: unknown, patternProperties?: unknown }
  if (s.type !== 'object' || s.properties === undefined || s.additionalProperties !== undefined || s.patternProperties !== undefined) return []
  return Object.keys(options).filter(k => !(k in s.properties!))
}

/** Called for a problem that does not stop loading (options given to a module that declares none). */
export type PlanWarning = (message: string, plugin: string) => void

/**
 * Reads, validates and imports everything plugins.json names, in three passes so nothing
 * is registered on a partial picture: the file and every module path; then every enabled
 * module is imported; then every plugin's options are validated. Dependencies are ordered
 * last. Throws PluginLoadError on the first problem.
 */
export async function planPlugins (pluginsFile: string, fallbackVersion: string, warn: PlanWarning = () => undefined): Promise<PlannedPlugin[]> {
  let text: string
  try {
    text = await readFile(pluginsFile, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw new PluginLoadError(`Cannot read ${pluginsFile}: ${(err as Error).message}`)
  }
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (err) {
    throw new PluginLoadError(`${pluginsFile} is not valid JSON: ${(err as Error).message}`)
  }
  const file = check(PluginsFileSchema, raw)
  if (!file.ok) throw new PluginLoadError(`${pluginsFile} does not match its schema: ${formatErrors(file.errors)}`)
  const entries = file.value.plugins as PluginEntry[]

  // 1. Names and module paths.
  const seen = new Set<string>()
  const located: Array<{ entry: PluginEntry, resolved: string, enabled: boolean }> = []
  for (const entry of entries) {
    if (seen.has(entry.name)) throw new PluginLoadError(`${pluginsFile} names plugin "${entry.name}" twice; names must be unique.`, entry.name)
    seen.add(entry.name)
    try {
      located.push({ entry, resolved: await resolveModule(entry.module, pluginsFile), enabled: entry.enabled !== false })
    } catch (err) {
      throw new PluginLoadError(`Plugin "${entry.name}": cannot find module "${entry.module}": ${(err as Error).message}.`, entry.name, err, entry.module)
    }
  }

  // 2. Import every enabled module (a disabled one is never imported).
  const modules = new Map<string, PluginModule>()
  for (const { entry, resolved, enabled } of located) {
    if (!enabled) continue
    try {
      modules.set(entry.name, await importModule(resolved))
    } catch (err) {
      throw new PluginLoadError(`Plugin "${entry.name}": cannot load module "${entry.module}": ${(err as Error).message}`, entry.name, err, entry.module)
    }
  }

  // 3. Validate every plugin's options against its module's schema.
  const planned: PlannedPlugin[] = []
  for (const { entry, resolved, enabled } of located) {
    const given = entry.options ?? {}
    const mod = modules.get(entry.name)
    if (mod === undefined) {
      planned.push({ name: entry.name, module: entry.module, resolved, enabled, version: nearestPackageVersion(resolved) ?? fallbackVersion, options: given, dependencies: entry.dependencies ?? [] })
      continue
    }
    let options = given
    if (mod.options !== undefined) {
      const res = check(mod.options, given, 'options')
      if (!res.ok) throw new PluginLoadError(`Plugin "${entry.name}" has invalid options: ${formatErrors(res.errors)}`, entry.name, undefined, entry.module)
      const unknown = undeclaredOptionKeys(mod.options, given)
      if (unknown.length > 0) {
        throw new PluginLoadError(`Plugin "${entry.name}" has invalid options: options: unknown key(s): ${unknown.join(', ')}. Remove them or check their spelling against the module's options schema.`, entry.name, undefined, entry.module)
      }
      options = res.value as Record<string, unknown>
    } else if (Object.keys(given).length > 0) {
      warn(`Plugin "${entry.name}": module "${entry.module}" declares no options schema, so its options (${Object.keys(given).join(', ')}) are passed through unchecked.`, entry.name)
    }
    planned.push({
      name: entry.name,
      module: entry.module,
      resolved,
      enabled,
      version: mod.version ?? nearestPackageVersion(resolved) ?? fallbackVersion,
      plugin: mod.default,
      options,
      ...(mod.config === undefined ? {} : { config: mod.config }),
      dependencies: [...(entry.dependencies ?? [])],
    })
  }

  // Dependencies named by a module's fp metadata count when that plugin is in the file
  // (fp also names framework plugins such as @fastify/sse, which are not entries).
  for (const p of planned) {
    if (p.plugin === undefined) continue
    for (const d of metaOf(p.plugin).dependencies ?? []) if (seen.has(d) && !p.dependencies.includes(d)) p.dependencies.push(d)
  }
  return orderByDependencies(planned)
}

/**
 * The config sections of every enabled plugin. Several modules may own one section (each
 * provider plugin and the providers API own `providers`) when they export the very same
 * schema, as they do through a kit; two different schemas for one section are refused.
 */
export function configSections (plugins: PlannedPlugin[]): ConfigSections {
  const out: ConfigSections = {}
  const owner: Record<string, string> = {}
  for (const p of plugins) {
    if (!p.enabled || p.config === undefined) continue
    for (const [key, schema] of Object.entries(p.config)) {
      if (out[key] !== undefined && out[key] !== schema) {
        throw new PluginLoadError(`Plugins "${owner[key]}" and "${p.name}" both declare the config section "${key}" with different schemas; share one schema (from a kit) or rename a section.`, p.name)
      }
      out[key] = schema
      owner[key] ??= p.name
    }
  }
  return out
}
