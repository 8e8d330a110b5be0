// A logger whose lines a test can read (pino at trace level into an array).
import pino from 'pino'
import { Writable } from 'node:stream'
import type { FastifyBaseLogger } from 'fastify'

export function captureLogger (lines: string[]): FastifyBaseLogger {
  const sink = new Writable({ write (chunk, _enc, cb) { lines.push(String(chunk)); cb() } })
  return pino({ level: 'trace' }, sink) as unknown as FastifyBaseLogger
}
