// Starts a real server with the memory plugins (embedded defaults unless told otherwise).
import type { Test } from 'tap'
import { startKernel, type Started } from '../helpers/kernel.ts'
import { memoryJobPlugins, repoPlugin, type PluginSpec } from '../helpers/workspace.ts'
import type { MemoryServiceImpl } from '../../plugins/memory/service.ts'

export interface MemoryPluginsOptions {
  sql?: Record<string, unknown>
  kv?: PluginSpec
  memory?: Record<string, unknown>
  extra?: PluginSpec[]
  embedder?: PluginSpec
  /** The memory job plugins (default: all, with their default options); an object sets some plugins' options. */
  jobs?: false | Parameters<typeof memoryJobPlugins>[0]
}

export function memoryPlugins (o: MemoryPluginsOptions = {}): PluginSpec[] {
  return [
    o.embedder ?? { name: 'embed-hash', module: repoPlugin('embed-hash') },
    { name: 'memory-sql', module: repoPlugin('memory-sql'), options: o.sql ?? {} },
    { name: 'memory-graph-sql', module: repoPlugin('memory-graph-sql'), options: o.sql ?? {} },
    // memory-kv writes behind to the same SQL database as the stores (same options, same handle).
    o.kv ?? { name: 'memory-kv', module: repoPlugin('memory-kv'), options: o.sql ?? {} },
    { name: 'memory', module: repoPlugin('memory'), options: o.memory ?? {} },
    ...(o.jobs === false ? [] : memoryJobPlugins(o.jobs)),
    ...(o.extra ?? []),
  ]
}

export async function startMemoryKernel (t: Test, o: MemoryPluginsOptions & { env?: Record<string, string>, watch?: boolean, logLevel?: string } = {}): Promise<Started & { svc: () => MemoryServiceImpl }> {
  const s = await startKernel(t, { plugins: memoryPlugins(o), env: o.env, watch: o.watch, logLevel: o.logLevel })
  const svc = (): MemoryServiceImpl => {
    const found = s.kernel.current?.app.registry.memoryServices.first()
    if (found === undefined) throw new Error('no memory service registered')
    return found as MemoryServiceImpl
  }
  return { ...s, svc }
}

export const del = async (s: Started, p: string): Promise<{ status: number, body: any }> => { // eslint-disable-line @typescript-eslint/no-explicit-any
  const res = await s.get(p, { method: 'DELETE' })
  const text = await res.text()
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) }
}
export const postJson = async (s: Started, p: string, body: unknown): Promise<{ status: number, body: any }> => { // eslint-disable-line @typescript-eslint/no-explicit-any
  const res = await s.post(p, body)
  const text = await res.text()
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) }
}
