// A logger whose lines a test can read: pino into an array, each line kept parsed (`lines`,
// for matching fields) and as written (`raw`, for "no line anywhere contains X" checks).
// The one capturing logger of the suite: startKernel's `logLevel` option uses it too.
import { pino, type Logger, type LoggerOptions } from 'pino'

export interface LogLine { level: number, msg: string, [key: string]: unknown }

export interface CapturedLog {
  logger: Logger
  lines: LogLine[]
  raw: string[]
  /** Every line as written, joined: for a regular expression over the whole log. */
  text: () => string
}

export function capturingLogger (level = 'trace', options: Omit<LoggerOptions, 'level'> = {}): CapturedLog {
  const lines: LogLine[] = []
  const raw: string[] = []
  const write = (s: string): void => {
    for (const line of s.split('\n')) {
      if (line === '') continue
      raw.push(line)
      lines.push(JSON.parse(line) as LogLine)
    }
  }
  const logger = pino({ ...options, level }, { write })
  return { logger, lines, raw, text: () => raw.join('\n') }
}
