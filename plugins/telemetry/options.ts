import { Type, type Static } from '@agentd/sdk/typebox'

export const options = Type.Object({
  /** GET /metrics (Prometheus text format). Covered by the API key when one is required. */
  metrics: Type.Boolean({ default: true }),
  /**
   * Prompt and completion text on model-call spans (`gen_ai.input.messages`,
   * `gen_ai.output.messages`). Off by default: they hold what users wrote. The environment's
   * OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true turns it on too.
   */
  capture_content: Type.Boolean({ default: false }),
  /**
   * One log line per request (method, route, status, ms, request id): `auto` is on when
   * the server's output is a terminal. AGENT_ACCESS_LOG=true|false overrides it.
   */
  access_log: Type.Union([Type.Literal('auto'), Type.Boolean()], { default: 'auto' }),
}, { additionalProperties: false })

export type TelemetryOptions = Static<typeof options>
