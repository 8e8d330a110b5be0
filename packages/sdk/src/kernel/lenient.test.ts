import t from 'tap'
import { Type } from '@agentd/sdk/typebox'
import { dropUnknownFields } from './lenient.ts'

const Schema = Type.Object({
  message: Type.String(),
  config: Type.Optional(Type.Object({ depth: Type.Optional(Type.Integer()) }, { additionalProperties: false })),
  meta: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
}, { additionalProperties: false })

t.test('drops what a closed schema does not declare, nested closed objects included', async t => {
  const body = { message: 'hi', show_reasoning: true, config: { depth: 2, future: 1 }, meta: { anything: 1 } }
  t.same(dropUnknownFields(Schema, body), ['show_reasoning', 'config.future'])
  t.same(body, { message: 'hi', config: { depth: 2 }, meta: { anything: 1 } }, 'open records keep their keys')
})

t.test('leaves known fields of the wrong type alone (validation refuses them) and ignores non-objects', async t => {
  const body = { message: 5, config: 'deep' }
  t.same(dropUnknownFields(Schema, body), [])
  t.same(body, { message: 5, config: 'deep' })
  t.same(dropUnknownFields(Schema, undefined), [])
  t.same(dropUnknownFields(Schema, ['x']), [])
  t.same(dropUnknownFields(Type.Object({ a: Type.String() }), { a: 'x', b: 1 }), [], 'a schema that is not closed is not touched')
})
