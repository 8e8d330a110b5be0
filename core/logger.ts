// One pino logger for the process; pretty when a person watches a terminal.
// Secrets are redacted by path, and error messages never carry them (plugins redact).
import pino, { type Logger } from 'pino'

export const REDACT_PATHS = [
  'req.headers["x-api-key"]', 'req.headers.authorization', 'headers["x-api-key"]', 'headers.authorization',
  '*.api_key', '*.apiKey', '*.password', '*.token', '*.headers', '*.env',
]

export function createLogger (level: string, pretty = process.stdout.isTTY === true): Logger {
  return pino({
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    ...(pretty ? { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' } } } : {}),
  })
}
