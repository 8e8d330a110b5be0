// @agentd/sdk: what a plugin needs from agentd, as values and types. The kernel API
// (registry, hooks, errors, settle, validation, watching files) is here; capability
// contracts are types under `@agentd/sdk/contracts`; shared code for whole families of
// plugins is in the kits (`@agentd/sdk/kits/<name>`).
export * from './kernel/registry.ts'
export * from './kernel/hooks.ts'
export * from './kernel/errors.ts'
export * from './kernel/error-body.ts'
export * from './kernel/settle.ts'
export * from './kernel/validate.ts'
export * from './kernel/lenient.ts'
export * from './kernel/watch.ts'
export type * from './kernel/plugin.ts'
// Every contract's declarations merge into Capabilities and HookPayloads once imported.
export type * from './contracts/index.ts'
export { registerFormats } from './kernel/formats.ts'
export * from './kernel/env.ts'
export * from './kernel/resources.ts'
export * from './kernel/body-parsers.ts'
export * from './kernel/config-view.ts'
export * from './kernel/read-file.ts'
export * from './kernel/concurrency.ts'
export * from './kernel/trust.ts'
export * from './kernel/openapi.ts'
export * from './kernel/openapi-document.ts'
export * from './kernel/health-schema.ts'
export * from './kernel/telemetry.ts'
export * from './kernel/request-id.ts'
export * from './kernel/failure-log.ts'
