// Runs scripts/mcp-conformance.mjs in one mode as a child process and collects what it
// printed; the server-mode and client-mode tests each assert on it.
import { spawn } from 'node:child_process'
import path from 'node:path'
import type { Test } from 'tap'
import { REPO } from '../helpers/workspace.ts'

export async function runConformance (t: Test, mode: 'server' | 'client'): Promise<{ code: number | null, out: string }> {
  const child = spawn(process.execPath, [path.join(REPO, 'scripts', 'mcp-conformance.mjs'), '--mode', mode], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout.on('data', (d: Buffer) => { out += d.toString() })
  child.stderr.on('data', (d: Buffer) => { out += d.toString() })
  t.teardown(() => { if (child.exitCode === null) child.kill('SIGTERM') })
  const code = await new Promise<number | null>(resolve => { child.once('close', resolve) })
  return { code, out }
}
