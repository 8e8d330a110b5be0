// GET /api/memory/export and POST /api/memory/import: a channel's memory (or every
// channel's) out as JSON Lines and back in (transfer-*.ts), and a ChatGPT export in.
// Registered in a scope of their own, so the JSON Lines body parser is theirs only.
import type { FastifyInstance } from 'fastify'
import { PassThrough, Readable } from 'node:stream'
import { Type } from '@agentd/sdk/typebox'
import { envInt } from '@agentd/sdk'
import { CHANNEL_ALL, CHANNEL_MAX_LENGTH, CHANNEL_PATTERN } from './channels.ts'
import { MemoryErrors } from './errors.ts'
import type { Guard } from './routes.ts'
import type { MemoryServiceImpl } from './service.ts'
import { MEDIA_TYPE } from './transfer-format.ts'
import { exportLines, exportPlan } from './transfer-export.ts'
import { readTransfer } from './transfer-read.ts'
import { looksLikeChatGpt, readChatGpt } from './transfer-chatgpt.ts'
import { applyImport } from './transfer-apply.ts'

const Channel = Type.String({ pattern: CHANNEL_PATTERN, maxLength: CHANNEL_MAX_LENGTH })
const LINES_TYPES = [MEDIA_TYPE, 'application/jsonl', 'application/x-jsonlines']
const Counts = Type.Record(Type.String(), Type.Integer())
const Result = Type.Object({
  success: Type.Literal(true), format: Type.String(), channels: Type.Array(Type.String()),
  imported: Counts, existing: Counts, dropped: Type.Integer({ description: 'references to items neither in the file nor in the store, left out' }), duration_ms: Type.Integer(),
})

export async function transferRoutes (app: FastifyInstance, svc: MemoryServiceImpl, guard: Guard, maxBytes: number): Promise<void> {
  const maxText = envInt(app.agentConfig.env, 'AGENT_MAX_TEXT_LENGTH', 100_000)
  await app.register(async scope => {
    scope.addContentTypeParser(LINES_TYPES, { parseAs: 'string', bodyLimit: maxBytes }, (_request, body, done) => {
      done(null, body.length === 0 ? undefined : body)
    })

    scope.get('/api/memory/export', {
      schema: {
        tags: ['memory'],
        summary: 'Export a channel\'s memory (or every channel\'s) as JSON Lines',
        description: `One JSON object a line (${MEDIA_TYPE}): a header \`{kind: "header", format: "agentd-memory", version: 1, exported_at, channels, embedder}\`, then \`channel\`, \`conversation\` (each followed by its \`turn\`s), \`entity\`, \`relationship\`, \`fact\` (superseded ones too, with \`supersedes_id\`/\`superseded_by_id\`), \`goal\` and \`strategy\` lines, each the item as the list endpoints show it plus \`kind\`. Vectors are left out: POST /api/memory/import embeds again. Without \`channel\` (or with \`${CHANNEL_ALL}\`), every channel.`,
        querystring: Type.Object({ channel: Type.Optional(Type.String({ pattern: `(${CHANNEL_PATTERN})|^${CHANNEL_ALL}$`, maxLength: CHANNEL_MAX_LENGTH })) }),
        response: { 200: { description: 'the export, streamed', content: { [MEDIA_TYPE]: { schema: Type.String() } } } },
      },
    }, async (request, reply) => {
      const q = request.query as { channel?: string }
      const channel = q.channel === CHANNEL_ALL ? undefined : q.channel
      const plan = await guard(async () => await exportPlan(svc, channel))
      const day = new Date().toISOString().slice(0, 10)
      return await reply
        .header('content-type', `${MEDIA_TYPE}; charset=utf-8`)
        .header('content-disposition', `attachment; filename="agentd-memory-${channel ?? 'all'}-${day}.jsonl"`)
        .send(Readable.from(exportLines(svc, plan)))
    })

    scope.post('/api/memory/import', {
      bodyLimit: maxBytes,
      schema: {
        tags: ['memory'],
        summary: 'Import a memory export (JSON Lines) or a ChatGPT conversations.json',
        description: `The body is a file from GET /api/memory/export (Content-Type ${MEDIA_TYPE} or application/jsonl), or a ChatGPT data export's \`conversations.json\` (application/json: its conversations become conversations and turns). \`channel\`: put everything into this channel (created when new); without it each item goes back to the channel it came from (a ChatGPT export to \`_default\`). The whole file is checked before anything is written: a bad line is a 400 naming its line number. Turns keep their ids when they go back into their own channel and get derived ids in another; other items get new ids, references follow. Items already there are not added twice (\`existing\`). Every item is embedded with the embedder loaded here. When a write fails, what the import wrote is taken back and the error answers. With \`Accept: ${MEDIA_TYPE}\` the writes report their progress as they go (JSON Lines; a bad file is still a 4xx before any).`,
        querystring: Type.Object({
          channel: Type.Optional(Channel),
          format: Type.Optional(Type.Union([Type.Literal('agentd'), Type.Literal('chatgpt')], { description: 'default: from the body (a JSON array of conversations with `mapping` is ChatGPT\'s)' })),
        }),
        response: {
          200: {
            description: `the counts; with \`Accept: ${MEDIA_TYPE}\` a stream of \`{kind: "progress", done, total}\` lines, then \`{kind: "result", ...the counts}\` or \`{kind: "error", error, code, statusCode}\``,
            content: {
              'application/json': { schema: Result },
              [MEDIA_TYPE]: { schema: Type.String() },
            },
          },
        },
      },
    }, async (request, reply) => {
      const q = request.query as { channel?: string, format?: 'agentd' | 'chatgpt' }
      const body: unknown = request.body
      if (body === undefined) throw new MemoryErrors.BAD_REQUEST(`Send the export file as the body (Content-Type ${MEDIA_TYPE}), or a ChatGPT conversations.json (application/json).`)
      const chatgpt = q.format === 'chatgpt' || (q.format === undefined && typeof body !== 'string' && looksLikeChatGpt(body))
      if (!chatgpt && typeof body !== 'string') throw new MemoryErrors.BAD_REQUEST(`An agentd export is JSON Lines: send it with Content-Type ${MEDIA_TYPE}. A JSON body is read as a ChatGPT conversations.json, a non-empty array of conversations with "mapping".`)
      const parsed = chatgpt && typeof body === 'string' ? parseJson(body) : body
      const doc = chatgpt ? readChatGpt(parsed, q.channel ?? '_default', maxText) : readTransfer(body as string, maxText)
      const format = chatgpt ? 'chatgpt' : 'agentd'
      if (!(request.headers.accept ?? '').includes(MEDIA_TYPE)) return { ...await guard(async () => await applyImport(svc, doc, { channel: q.channel })), format }
      // Progress asked for: the file was good (a bad one answered 4xx above); the writes stream
      // their progress as JSON Lines, then the result or the error as the last line.
      const out = new PassThrough()
      const line = (o: object): void => { out.write(`${JSON.stringify(o)}\n`) }
      guard(async () => await applyImport(svc, doc, { channel: q.channel, onProgress: p => { line({ kind: 'progress', ...p }) } }))
        .then(r => { line({ kind: 'result', ...r, format }) }, (err: Error & { statusCode?: number, code?: string }) => {
          const statusCode = err.statusCode ?? 500
          if (statusCode >= 500 && err.code !== 'AGENT_ERR_MEMORY_STORE_UNAVAILABLE') request.log.error({ err }, 'memory import failed')
          line({ kind: 'error', error: statusCode >= 500 && err.code === undefined ? 'The import failed on the server and what it wrote was taken back; the server log has the details.' : err.message, code: err.code ?? 'AGENT_ERR_INTERNAL', statusCode })
        })
        .finally(() => { out.end() })
      return await reply.header('content-type', `${MEDIA_TYPE}; charset=utf-8`).send(out)
    })
  })
}

function parseJson (text: string): unknown {
  try { return JSON.parse(text) } catch (err) { throw new MemoryErrors.BAD_REQUEST(`format=chatgpt: the body is not JSON (${(err as Error).message}); send conversations.json as it is.`) }
}
