// POST /api/tools/translate and GET /api/tools/languages (DECISIONS.md shapes).
import type { FastifyInstance } from 'fastify'
import { Type, type Static } from '@agentd/sdk/typebox'
import { confidencePercent, DETECTION_CODES, DETECTION_LANGUAGES } from '@agentd/sdk/kits/language'
import type { Detector, Translator } from '@agentd/sdk/contracts/language'
import { ModelUnavailableError } from '@agentd/sdk/kits/models'
import { withDetails } from '@agentd/sdk'
import { TranslateErrors } from './errors.ts'
import { LEXICON, NLLB_LANGUAGES, isNllbCode, nllbFor, nllbName, suggestion } from './languages.ts'

const TranslateBody = Type.Object({
  text: Type.String({ description: 'The text to translate.' }),
  targetLanguage: Type.String({ description: 'NLLB-200 code of the target, e.g. fra_Latn (GET /api/tools/languages lists them).' }),
  sourceLanguage: Type.Optional(Type.String({ description: 'NLLB-200 code of the source; detected when absent.' })),
})
type TranslateBody = Static<typeof TranslateBody>

const TranslateResponse = Type.Object({
  status: Type.Literal('success'),
  original: Type.String(),
  translatedText: Type.String(),
  translated_text: Type.String(),
  targetLanguage: Type.String(),
  target_language: Type.String(),
  source_language: Type.String({ description: 'NLLB-200 code of the given or detected source.' }),
  source_confidence: Type.Optional(Type.Number({ minimum: 0, maximum: 100, description: 'Only when the source was detected: the detection confidence, percent, two decimals.' })),
})

const LanguagesResponse = Type.Object({
  languages: Type.Array(Type.Object({ code: Type.String(), name: Type.String() })),
  count: Type.Integer(),
  detection_languages: Type.Array(Type.Object({ code: Type.String(), name: Type.String(), nllb: Type.String() })),
})

function checkCode (field: string, code: string): string {
  if (isNllbCode(code)) return code
  const hint = suggestion(code)
  throw new TranslateErrors.UNKNOWN_LANGUAGE(`${field} "${code}" is not an NLLB-200 language code${hint === undefined ? '' : ` (for ${code} use ${hint})`}; GET /api/tools/languages lists every supported code with its name.`)
}

export interface TranslateDeps {
  translator: Translator
  /** The detector that finds the source language when none is given. */
  detector: () => Detector | undefined
  maxLength: number
  /** Percent: a detected source less sure than this is refused (422) instead of used. */
  minSourceConfidence: number
}


export async function translate (deps: TranslateDeps, body: TranslateBody, signal?: AbortSignal): Promise<Static<typeof TranslateResponse>> {
  const { text } = body
  if (text.trim() === '') throw new TranslateErrors.NO_TEXT()
  if (text.length > deps.maxLength) throw new TranslateErrors.TEXT_TOO_LONG(text.length, deps.maxLength)
  const target = checkCode('targetLanguage', body.targetLanguage)
  let source: string
  let sourceConfidence: number | undefined
  if (body.sourceLanguage !== undefined && body.sourceLanguage !== '') {
    source = checkCode('sourceLanguage', body.sourceLanguage)
  } else {
    const detector = deps.detector()
    if (detector === undefined) throw new TranslateErrors.NO_SOURCE()
    let detected
    try {
      detected = await detector.detect(text, signal)
    } catch (err) {
      if (err instanceof ModelUnavailableError) throw new TranslateErrors.UNAVAILABLE(`${err.message} Or send "sourceLanguage" so no detection is needed.`)
      throw err
    }
    source = nllbFor(detected.language, text)
    sourceConfidence = confidencePercent(detected.confidence)
    // An unsure guess is not silently used: from a wrong source NLLB writes fluent
    // nonsense, and a wrong "same as the target" would hand the text back untranslated.
    if (sourceConfidence < deps.minSourceConfidence) {
      const guess = `${nllbName(source) ?? source} (${source})`
      throw withDetails(new TranslateErrors.SOURCE_UNCERTAIN(
        `The source language could not be detected with confidence: the best guess is ${guess} at ${sourceConfidence}%, under the ${deps.minSourceConfidence}% required ` +
        '(translation plugin option min_source_confidence). Send "sourceLanguage" with the NLLB-200 code of the text (GET /api/tools/languages lists them); short texts often need it.',
      ), [{ path: 'body.sourceLanguage', message: `required for this text: detected ${source} with ${sourceConfidence}% confidence` }])
    }
  }
  // Same language: nothing to translate, and no reason to load a model for it.
  const translated = source === target ? text : await deps.translator.translate({ text, source, target }, signal)
  return {
    status: 'success',
    original: text,
    translatedText: translated,
    translated_text: translated,
    targetLanguage: target,
    target_language: target,
    source_language: source,
    ...(sourceConfidence === undefined ? {} : { source_confidence: sourceConfidence }),
  }
}

export async function translationRoutes (app: FastifyInstance, deps: TranslateDeps): Promise<void> {
  app.post('/api/tools/translate', {
    bodyLimit: Math.max(1_048_576, deps.maxLength * 4 + 4096),
    schema: {
      tags: ['translation'],
      summary: 'Translate text to an NLLB-200 language (Level II); the source is detected when not given',
      body: TranslateBody,
      response: { 200: TranslateResponse },
    },
  }, async (request, reply) => {
    // A caller that hangs up stops the remaining pieces of a long translation.
    const abort = new AbortController()
    reply.raw.once('close', () => { if (!reply.raw.writableFinished) abort.abort() })
    return await translate(deps, request.body as TranslateBody, abort.signal)
  })

  const languages = {
    languages: NLLB_LANGUAGES.map(l => ({ code: l.code, name: l.name })),
    count: NLLB_LANGUAGES.length,
    detection_languages: DETECTION_CODES.map(code => ({ code, name: DETECTION_LANGUAGES[code], nllb: LEXICON[code] })),
  }
  app.get('/api/tools/languages', {
    schema: { tags: ['translation'], summary: 'Every NLLB-200 code with its name, and the lexicon from the twenty detected languages', response: { 200: LanguagesResponse } },
  }, async () => languages)
}

export { nllbName }
