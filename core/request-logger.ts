// The per-request logger, built only when a request actually logs. Fastify makes a pino
// child per request to bind `reqId`; with redaction on (core/logger.ts), building that
// child costs more than serving a small route, and most requests never log (request
// logging is off). So the child is created on the first enabled log call.
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify'
import type { Bindings, ChildLoggerOptions } from 'pino'

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace'
type Log = (...args: unknown[]) => void

export class LazyRequestLogger implements FastifyBaseLogger {
  readonly #parent: FastifyBaseLogger
  readonly #bindings: Bindings
  #child: FastifyBaseLogger | undefined

  constructor (parent: FastifyBaseLogger, bindings: Bindings) {
    this.#parent = parent
    this.#bindings = bindings
  }

  #real (): FastifyBaseLogger {
    this.#child ??= this.#parent.child(this.#bindings)
    return this.#child
  }

  /** pino points every disabled level at the same no-op as `silent`: such a call needs no child. */
  #log (level: Level, args: unknown[]): void {
    const target = this.#child ?? this.#parent
    if (target[level] === target.silent) return
    ;(this.#real()[level] as Log)(...args)
  }

  get level (): string { return (this.#child ?? this.#parent).level }
  set level (level: string) { this.#real().level = level }

  fatal (...args: unknown[]): void { this.#log('fatal', args) }
  error (...args: unknown[]): void { this.#log('error', args) }
  warn (...args: unknown[]): void { this.#log('warn', args) }
  info (...args: unknown[]): void { this.#log('info', args) }
  debug (...args: unknown[]): void { this.#log('debug', args) }
  trace (...args: unknown[]): void { this.#log('trace', args) }
  silent (): void {}

  child (bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#real().child(bindings, options)
  }
}

/**
 * Fastify's childLoggerFactory, over `base` rather than the logger Fastify passes in: the
 * generation gives Fastify no logger of its own (see generation.ts), so what Fastify
 * passes is its null logger. Lazy unless the route asks for its own level or serializers.
 */
export function requestLoggerFactory (base: FastifyBaseLogger): NonNullable<FastifyServerOptions['childLoggerFactory']> {
  return function (_fastifyLogger, bindings, opts) {
    if (opts.level === undefined && opts.serializers === undefined) return new LazyRequestLogger(base, bindings)
    return base.child(bindings, opts)
  }
}
