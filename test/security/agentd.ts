// agentd as a person runs it, for the security tests: a real process (`core/main.ts`) on the
// shipped plugins.json and embedded defaults, on a free loopback port, plus a raw HTTP
// client that sends exactly the headers a browser would (fetch may not set `Host`).
import http from 'node:http'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { Test } from 'tap'
import { REPO, Workspace, type PluginSpec } from '../helpers/workspace.ts'
import { spawnAgentd, type AgentdProcess } from '../helpers/agentd-process.ts'

export interface RawAnswer { status: number, headers: http.IncomingHttpHeaders, text: string, json: Record<string, any> | undefined } // eslint-disable-line @typescript-eslint/no-explicit-any -- any JSON body

/** The repository's plugins.json with its module paths made absolute (the workspace is elsewhere). */
export function shippedPlugins (): PluginSpec[] {
  const { plugins } = JSON.parse(readFileSync(path.join(REPO, 'plugins.json'), 'utf8')) as { plugins: PluginSpec[] }
  return plugins.map(p => ({ ...p, module: p.module.startsWith('.') ? path.join(REPO, p.module) : p.module }))
}

export async function startAgentd (t: Test, env: Record<string, string> = {}, config?: unknown): Promise<AgentdProcess & { ws: Workspace, port: number }> {
  const ws = new Workspace('agentd-security-')
  t.teardown(() => { ws.remove() })
  ws.writePlugins(shippedPlugins())
  if (config !== undefined) ws.writeConfig(config)
  const p = await spawnAgentd(t, ws, env)
  return { ...p, ws, port: Number(new URL(p.url).port) }
}

/** One request with the given headers verbatim (Host included). */
export async function raw (port: number, method: string, pathname: string, headers: Record<string, string> = {}, body?: string): Promise<RawAnswer> {
  return await new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: pathname, headers: { host: `127.0.0.1:${port}`, ...headers, ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }) } }, res => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => { text += c })
      res.on('end', () => {
        let json: Record<string, unknown> | undefined
        try { json = JSON.parse(text) } catch { json = undefined }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json })
      })
    })
    req.on('error', reject)
    req.end(body)
  })
}
