// The echo test of the junk filter: a user sentence is a quote only when the agent said it
// first. A model that repeats the user ("You said: ...") must not make the user's own
// statement disappear; a user pasting the agent's earlier words is still a quote.
import t from 'tap'
import { echoOf } from './junk.ts'

const DANA = 'Hi! My name is Dana and I work at Siemens in Munich.'

t.test('a user sentence the assistant repeats afterwards is the user\'s own statement, not an echo', async t => {
  const turns = [
    { role: 'user', content: DANA },
    { role: 'assistant', content: `You said: ${DANA} Nice to meet you, Dana!` },
  ]
  t.equal(echoOf(turns)('My name is Dana and I work at Siemens in Munich.', 0), false)
})

t.test('a user sentence that repeats what the assistant said before it is an echo', async t => {
  const turns = [
    { role: 'assistant', content: 'The capital of Australia is Canberra, not Sydney.' },
    { role: 'user', content: 'The capital of Australia is Canberra, not Sydney.' },
  ]
  t.equal(echoOf(turns)('The capital of Australia is Canberra, not Sydney.', 1), true)
})

t.test('a sentence the agent never said is no echo, and a very short one never is', async t => {
  const turns = [{ role: 'assistant', content: 'OK. I work at Siemens.' }, { role: 'user', content: 'I work at Bosch.' }]
  const echoed = echoOf(turns)
  t.equal(echoed('I work at Bosch.', 1), false)
  t.equal(echoed('OK.', 1), false, 'under twelve characters: too short to call a quote')
})
