// GET and POST /api/tools/language-detect-20 (DECISIONS.md: the two shown shapes merged).
import type { FastifyInstance } from 'fastify'
import { envInt } from '@agentd/sdk'
import { Type, type Static } from '@agentd/sdk/typebox'
import { confidencePercent, DETECTION_CODES, DETECTION_LANGUAGES } from '@agentd/sdk/kits/language'
import type { Detector } from '@agentd/sdk/contracts/language'
import { DetectErrors } from './errors.ts'
import { ModelUnavailableError } from '@agentd/sdk/kits/models'

const TextBody = Type.Object({ text: Type.Optional(Type.String({ description: 'The text whose language to detect.' })) })

export const DetectResponse = Type.Object({
  status: Type.Literal('success'),
  original: Type.String(),
  detected_language: Type.String({ description: `ISO 639-1 code, one of the twenty languages: ${DETECTION_CODES.join(', ')}.` }),
  language: Type.String({ description: 'Same as detected_language.' }),
  language_name: Type.String(),
  confidence: Type.Number({ minimum: 0, maximum: 100, description: 'Percent, two decimals: the estimated chance the answer is right.' }),
})
export type DetectResponse = Static<typeof DetectResponse>

/** Checks the text against the limits; the same rules as /api/tools/translate. */
export function checkText (text: string | undefined, maxLength: number): string {
  if (text === undefined || text.trim() === '') throw new DetectErrors.NO_TEXT()
  if (text.length > maxLength) throw new DetectErrors.TEXT_TOO_LONG(text.length, maxLength)
  return text
}

export async function runDetection (detector: Detector, text: string): Promise<DetectResponse> {
  let d
  try {
    d = await detector.detect(text)
  } catch (err) {
    if (err instanceof ModelUnavailableError) throw new DetectErrors.MODEL_UNAVAILABLE(err.message)
    throw err
  }
  return {
    status: 'success',
    original: text,
    detected_language: d.language,
    language: d.language,
    language_name: DETECTION_LANGUAGES[d.language],
    confidence: confidencePercent(d.confidence),
  }
}

export async function detectRoutes (app: FastifyInstance, detector: Detector): Promise<void> {
  const maxLength = envInt(app.agentConfig.env, 'AGENT_MAX_TEXT_LENGTH', 100_000)
  const common = {
    tags: ['translation'],
    response: { 200: DetectResponse },
  }
  app.get('/api/tools/language-detect-20', {
    schema: { ...common, summary: 'Detect which of twenty languages a text is in (Level I)', querystring: TextBody },
  }, async (request) => {
    const { text } = request.query as Static<typeof TextBody>
    return await runDetection(detector, checkText(text, maxLength))
  })
  app.post('/api/tools/language-detect-20', {
    // Room for AGENT_MAX_TEXT_LENGTH characters of 4-byte UTF-8, so the limit answers with its own 413.
    bodyLimit: Math.max(1_048_576, maxLength * 4 + 4096),
    schema: { ...common, summary: 'Detect which of twenty languages a text is in (Level I)', body: TextBody },
  }, async (request) => {
    const { text } = (request.body ?? {}) as Static<typeof TextBody>
    return await runDetection(detector, checkText(text, maxLength))
  })
}
