// Builds the SDK transport for a server entry. Commands come only from mcp_servers.json;
// a stdio child's stderr is handed to `onStderr` line by line (the caller logs it with
// the server name, redacted).
import path from 'node:path'
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

/** The trace context a JSON-RPC request's body carries in `params._meta`, if any. */
function metaTrace (body: string): { traceparent: string, tracestate?: unknown } | undefined {
  try {
    const meta = (JSON.parse(body) as { params?: { _meta?: { traceparent?: unknown, tracestate?: unknown } } }).params?._meta
    return typeof meta?.traceparent === 'string' ? { traceparent: meta.traceparent, tracestate: meta.tracestate } : undefined
  } catch { return undefined }
}

/**
 * A `fetch` that sends the trace context a JSON-RPC request carries in its `_meta` (a tool
 * call's, connection.ts) as the W3C headers too, for servers that trace at the HTTP layer.
 * The SDK's transports take no per-request headers; the body is a string here.
 */
export function metaTraceFetch (inner: typeof fetch): typeof fetch {
  return async (input, init) => {
    const body = init?.body
    const trace = typeof body === 'string' && body.includes('"traceparent"') ? metaTrace(body) : undefined
    if (trace === undefined) return await inner(input, init)
    const headers = new Headers(init?.headers)
    headers.set('traceparent', trace.traceparent)
    if (typeof trace.tracestate === 'string') headers.set('tracestate', trace.tracestate)
    return await inner(input, { ...init, headers })
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
  // A tool call's request carries the trace context of its execute_tool span while traces are
  // exported: the connection puts it in the request's `_meta`; sent as headers here too.
  const fetch = metaTraceFetch(async (input, init) => await globalThis.fetch(input, init))
  if (kind === 'sse') return { kind, transport: new SSEClientTransport(url, { requestInit, authProvider, fetch }), pid: () => undefined }
  return { kind, transport: new StreamableHTTPClientTransport(url, { requestInit, authProvider, fetch }), pid: () => undefined }
}
