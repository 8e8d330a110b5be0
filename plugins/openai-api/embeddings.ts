// POST /v1/embeddings (OpenAI's API) over agentd's embedders: `model` names a registered
// embedder by its plugins.json name (`embed-hash`), its id (`hash-v1`,
// `openai:text-embedding-3-small`) or the model part of that id (`text-embedding-3-small`).
// `encoding_format: "base64"` (what OpenAI's SDKs ask for by default) packs each vector as
// little-endian float32, as OpenAI does.
import type { FastifyInstance } from 'fastify'
import { Type, type Static } from '@agentd/sdk/typebox'
import type { Embedder } from '@agentd/sdk/contracts/embedder'
import { ignoreUnknownFields } from '@agentd/sdk'
import { OpenAIErrors, OPENAI_ERROR_DOC } from './errors.ts'

const MAX_INPUTS = 2048

export const EmbeddingRequestSchema = Type.Object({
  model: Type.String({ minLength: 1, description: 'a registered embedder: its plugins.json name, its id, or the model part of its id' }),
  input: Type.Union([Type.String(), Type.Array(Type.String(), { minItems: 1, maxItems: MAX_INPUTS })]),
  encoding_format: Type.Optional(Type.Union([Type.Literal('float'), Type.Literal('base64')])),
  dimensions: Type.Optional(Type.Integer({ minimum: 1 })),
  user: Type.Optional(Type.String()),
}, { additionalProperties: false })
type EmbeddingRequest = Static<typeof EmbeddingRequestSchema>

/** The embedder `model` names, or a 400 naming the ones there are. */
function embedderFor (app: FastifyInstance, model: string): { name: string, embedder: Embedder } {
  const all = app.registry.embedders.entries()
  const found = all.find(([name, e]) => name === model || e.id === model || e.id.split(':').slice(1).join(':') === model)
  if (found === undefined) {
    throw new OpenAIErrors.UNSUPPORTED(`No embedder "${model}". Available: ${all.map(([name, e]) => `${name} (${e.id}, ${e.dimensions} dimensions)`).join(', ') || 'none (add an embed-* plugin to plugins.json)'}.`)
  }
  return { name: found[0], embedder: found[1] }
}

const base64Of = (v: number[]): string => Buffer.from(new Float32Array(v).buffer).toString('base64')

export function embeddingRoutes (v1: FastifyInstance): void {
  v1.post('/embeddings', {
    config: { openapiErrors: OPENAI_ERROR_DOC },
    preValidation: ignoreUnknownFields(EmbeddingRequestSchema),
    schema: {
      tags: ['openai'],
      summary: 'OpenAI-compatible: embeddings from one of agentd\'s embedders',
      body: EmbeddingRequestSchema,
      response: {
        200: Type.Object({
          object: Type.Literal('list'),
          data: Type.Array(Type.Object({ object: Type.Literal('embedding'), index: Type.Integer(), embedding: Type.Union([Type.Array(Type.Number()), Type.String()]) })),
          model: Type.String(),
          usage: Type.Object({ prompt_tokens: Type.Integer(), total_tokens: Type.Integer() }),
        }),
      },
    },
  }, async (request) => {
    const body = request.body as EmbeddingRequest
    const { embedder } = embedderFor(v1, body.model)
    if (body.dimensions !== undefined && body.dimensions !== embedder.dimensions) {
      throw new OpenAIErrors.UNSUPPORTED(`${embedder.id} makes ${embedder.dimensions}-dimension vectors; dimensions ${body.dimensions} cannot be given (leave it out).`)
    }
    const inputs = typeof body.input === 'string' ? [body.input] : body.input
    const vectors = await embedder.embed(inputs)
    // Tokens as agentd estimates them elsewhere (about four characters each): the embedders count none.
    const tokens = inputs.reduce((n, s) => n + Math.ceil(s.length / 4), 0)
    return {
      object: 'list' as const,
      data: vectors.map((v, index) => ({ object: 'embedding' as const, index, embedding: body.encoding_format === 'base64' ? base64Of(v) : v })),
      model: embedder.id,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    }
  })
}
