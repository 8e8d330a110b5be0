// The kernel's schema compilers, both compiling a route's schema on the route's first use
// rather than at start. A start registers ~90 routes, each with request schemas and a
// response schema per status; compiling them all up front (TypeBox checks, and
// fast-json-stringify serializers with their Ajv instances) was ~9% of a start's CPU
// (a profile of one start: fast-json-stringify 116 ms, Ajv 93 ms, TypeBox 81 ms of 3.1 s),
// for routes most processes never call. The cost moves to a route's first request (well
// under a millisecond for most schemas).
//
// Request validation with TypeBox. Bodies are checked as sent (a number is not a string:
// wrong types are a 400); querystrings, params and headers are converted first, because
// they arrive as text. Schema defaults are applied to every part. Hot path: a value that
// already passes and a schema without defaults skip the (slower) Convert/Default passes,
// so validation costs one compiled check per request.
import type { FastifySchemaCompiler } from 'fastify'
import { SerializerSelector, type SerializerFactory } from '@fastify/fast-json-stringify-compiler'
import type { TSchema } from '@agentd/sdk/typebox'
import { Compile } from '@agentd/sdk/typebox/compile'
import { Value } from '@agentd/sdk/typebox/value'
import { registerFormats } from './formats.ts'

registerFormats()

export const validatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  let compiled: { check: ReturnType<typeof Compile>, hasDefaults: boolean } | undefined
  const convert = httpPart !== 'body'
  return (value: unknown) => {
    compiled ??= { check: Compile(schema), hasDefaults: JSON.stringify(schema).includes('"default"') }
    const { check, hasDefaults } = compiled
    if (!hasDefaults && check.Check(value)) return { value }
    let v = convert ? Value.Convert(schema, value) : value
    if (hasDefaults && v !== undefined && v !== null && typeof v === 'object') v = Value.Default(schema, v)
    if (check.Check(v)) return { value: v }
    return { error: check.Errors(v) as unknown as Error }
  }
}

const eagerSerializers = SerializerSelector()

/**
 * Fastify's own serializer factory (fast-json-stringify, the same external schemas and
 * options), each route's serializer built on its first response. For Fastify's
 * `schemaController.compilersFactory.buildSerializer`.
 */
export const lazySerializers: SerializerFactory = (externalSchemas, serializerOpts) => {
  const compile = eagerSerializers(externalSchemas, serializerOpts)
  return (route) => {
    let serialize: ((data: unknown) => string) | undefined
    return (data: unknown) => (serialize ??= compile(route))(data)
  }
}
