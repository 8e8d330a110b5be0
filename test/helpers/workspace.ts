// A throw-away working directory for one test: plugins.json, data/, any extra files.
// Module paths of repo plugins are made absolute so the workspace can live in /tmp.
import { mkdtempSync, writeFileSync, mkdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')

export interface PluginSpec { name: string, module: string, enabled?: boolean, options?: Record<string, unknown>, dependencies?: string[] }

/** `repoPlugin('tools-builtin')` -> absolute path of plugins/tools-builtin. */
export const repoPlugin = (name: string): string => path.join(REPO, 'plugins', name)
/** Two OpenAI-compatible providers (openai, local), the providers API and the config API. */
export const providersWithConfigApi = (): PluginSpec[] => [
  { name: 'openai', module: repoPlugin('provider-openai-compatible') },
  { name: 'local', module: repoPlugin('provider-openai-compatible') },
  { name: 'providers-api', module: repoPlugin('providers-api') },
  { name: 'config-api', module: repoPlugin('config-api') },
]
/**
 * The memory plugins on embedded defaults with the shipped recall techniques (each brings its
 * recall settings), as the shipped plugins.json has them; `models: true` adds the techniques
 * that ask a model (HyDE, self-query).
 */
/** The memory job plugins, each its own plugin (plugins.json's order: POST /api/memory/consolidate runs consolidate, patterns, promote in it). */
export const MEMORY_JOB_PLUGINS = ['job-consolidate', 'job-patterns', 'job-promote', 'job-entity-linking', 'job-decay', 'job-cleanup', 'job-audit-partitions'] as const
export const memoryJobPlugins = (options: Partial<Record<typeof MEMORY_JOB_PLUGINS[number], Record<string, unknown>>> = {}): PluginSpec[] =>
  MEMORY_JOB_PLUGINS.map(name => ({ name, module: repoPlugin(name), ...(options[name] === undefined ? {} : { options: options[name] }) }))

export const memoryWithRecall = (opts: { models?: boolean } = {}): PluginSpec[] => [
  ...['embed-hash', 'memory-sql', 'memory-graph-sql', 'memory-kv', 'memory', 'recall-hybrid', 'recall-entity', 'recall-expansion'].map(name => ({ name, module: repoPlugin(name) })),
  ...memoryJobPlugins(),
  ...(opts.models === true ? ['recall-hyde', 'recall-self-query'].map(name => ({ name, module: repoPlugin(name) })) : []),
]

export const fixturePlugin = (name: string): string => path.join(REPO, 'test', 'fixtures', 'plugins', name)

export class Workspace {
  readonly dir: string
  readonly dataDir: string
  constructor (prefix = 'agentd-test-') {
    this.dir = mkdtempSync(path.join(tmpdir(), prefix))
    this.dataDir = path.join(this.dir, 'data')
    mkdirSync(this.dataDir, { recursive: true })
  }

  get pluginsFile (): string { return path.join(this.dir, 'plugins.json') }

  writePlugins (plugins: PluginSpec[]): void { this.write('plugins.json', JSON.stringify({ plugins }, null, 2)) }
  writeConfig (config: unknown): void { this.write('data/config.json', JSON.stringify(config, null, 2)) }
  write (rel: string, text: string): string {
    const file = path.join(this.dir, rel)
    mkdirSync(path.dirname(file), { recursive: true })
    writeFileSync(file, text)
    return file
  }

  remove (): void { rmSync(this.dir, { recursive: true, force: true }) }
}
