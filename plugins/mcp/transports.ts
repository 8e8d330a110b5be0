// Builds the SDK transport for a server entry. Commands come only from mcp_servers.json;
// a stdio child's stderr is handed to `onStderr` line by line (the caller logs it with
// the server name, redacted).
import path from 'node:path'
import { tracedFetch } from '@agentd/sdk'
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js'
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import type { ResolvedServer } from './config.ts'

export type WireTransport = 'stdio' | 'sse' | 'streamable_http'

export interface BuiltTransport {
  kind: WireTransport
  transport: Transport
  /** The child's pid once started (stdio only). */
  pid: () => number | undefined
}

function lineSplitter (onLine: (line: string) => void): (chunk: Buffer | string) => void {
  let rest = ''
  return chunk => {
    const text = rest + String(chunk)
    const lines = text.split(/\r?\n/)
    rest = lines.pop() ?? ''
    // A child that never ends a line must not grow the buffer without bound.
    if (rest.length > 8192) { lines.push(rest); rest = '' }
    for (const l of lines) if (l.trim() !== '') onLine(l)
  }
}

/** `authProvider`: the server's OAuth (auth: "oauth"), for the HTTP transports. */
export function buildTransport (cfg: ResolvedServer, kind: WireTransport, baseDir: string, onStderr: (line: string) => void, authProvider?: OAuthClientProvider): BuiltTransport {
  if (kind === 'stdio') {
    const command = cfg.command as string
    // A relative command path ("./server.js") is relative to the folder of mcp_servers.json.
    const resolved = command.startsWith('./') || command.startsWith('../') ? path.resolve(baseDir, command) : command
    const t = new StdioClientTransport({
      command: resolved,
      args: cfg.args,
      env: { ...getDefaultEnvironment(), ...cfg.env },
      cwd: cfg.cwd ?? baseDir,
      stderr: 'pipe',
    })
    t.stderr?.on('data', lineSplitter(onStderr))
    return { kind, transport: t, pid: () => t.pid ?? undefined }
  }
  const url = new URL(cfg.url as string)
  const requestInit: RequestInit = { headers: { ...cfg.headers } }
  // A tool call's request carries the trace context of its execute_tool span while traces are exported.
  const fetch = tracedFetch()
  if (kind === 'sse') return { kind, transport: new SSEClientTransport(url, { requestInit, authProvider, fetch }), pid: () => undefined }
  return { kind, transport: new StreamableHTTPClientTransport(url, { requestInit, authProvider, fetch }), pid: () => undefined }
}
