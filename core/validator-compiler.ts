// Request validation with TypeBox. Bodies are checked as sent (a number is not a string:
// wrong types are a 400); querystrings, params and headers are converted first, because
// they arrive as text. Schema defaults are applied to every part.
// Hot path: a value that already passes and a schema without defaults skip the (slower)
// Convert/Default passes, so validation costs one compiled check per request.
import type { FastifySchemaCompiler } from 'fastify'
import type { TSchema } from '@agentd/sdk/typebox'
import { Compile } from '@agentd/sdk/typebox/compile'
import { Value } from '@agentd/sdk/typebox/value'
import { registerFormats } from '@agentd/sdk'

registerFormats()

export const validatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const typeCheck = Compile(schema)
  const hasDefaults = JSON.stringify(schema).includes('"default"')
  const convert = httpPart !== 'body'
  return (value: unknown) => {
    if (!hasDefaults && typeCheck.Check(value)) return { value }
    let v = convert ? Value.Convert(schema, value) : value
    if (hasDefaults && v !== undefined && v !== null && typeof v === 'object') v = Value.Default(schema, v)
    if (typeCheck.Check(v)) return { value: v }
    return { error: typeCheck.Errors(v) as unknown as Error }
  }
}
