// .env is re-read for every generation: an edit of it reaches the ${VAR}s of
// mcp_servers.json, and only servers whose resolved values changed reconnect.
import t from 'tap'
import { startMcp, everything, isConnected } from './helpers.ts'

t.test('setting a variable in .env connects the server that needed it; the others keep their process', async t => {
  const s = await startMcp(t, { needs: everything({ env: { X_VALUE: '${AGENTD_TEST_X}' } }), other: everything() })
  const other1 = await s.waitFor('other', isConnected, 'connected')
  const missing = await s.waitFor('needs', x => x.status === 'error', 'error')
  t.match(missing.error, /\$\{AGENTD_TEST_X\} not set/)
  const gen = s.kernel.api.generation()

  s.ws.write('.env', 'AGENTD_TEST_X=first-value\n')
  const needs1 = await s.waitFor('needs', isConnected, 'connected after .env got the variable')
  t.ok(s.kernel.api.generation() > gen, 'the kernel reloaded for the .env edit')
  const other2 = await s.server('other')
  t.equal(other2?.pid, other1.pid, 'other keeps its process')
  t.equal(other2?.connected_at, other1.connected_at, 'other was not reconnected')

  // A new value is a changed entry: that server reconnects, the other stays.
  s.ws.write('.env', 'AGENTD_TEST_X=second-value\n')
  const needs2 = await s.waitFor('needs', x => x.status === 'connected' && x.pid !== needs1.pid, 'reconnected with the new value')
  t.not(needs2.pid, needs1.pid)
  t.equal((await s.server('other'))?.pid, other1.pid, 'other still keeps its process')
})
