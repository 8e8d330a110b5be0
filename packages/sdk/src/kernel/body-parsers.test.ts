// jsonDepth: the nesting check the JSON parser runs before parsing a long body.
import t from 'tap'
import { jsonDepth } from './body-parsers.ts'

t.test('jsonDepth counts arrays and objects, not brackets inside strings', async t => {
  t.equal(jsonDepth('{"a": [1, {"b": []}]}'), 4)
  t.equal(jsonDepth('"[[[["'), 0, 'brackets in a string')
  t.equal(jsonDepth('{"a": "x\\"[[[", "b": [1]}'), 2, 'an escaped quote does not end the string')
  t.equal(jsonDepth('[]'.repeat(1000)), 1, 'siblings are not depth')
  t.equal(jsonDepth('['.repeat(5000) + ']'.repeat(5000), 256), 257, 'stops counting past the limit')
})
