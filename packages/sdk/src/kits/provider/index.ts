// The provider kit: what every provider plugin shares, in this repository or on npm.
// - capabilities, catalogue: SPEC.md's defaults; shipped capability data with config overrides
// - settings: where a key, address and timeout come from (config file, env, default)
// - errors, upstream-error: the AGENT_ERR_PROVIDER_* codes, and any upstream failure mapped to one
// - deadline, upstream: one call under a timeout (idle timeout for streams) and the
//   caller's signal; the SDK clients' retries kept to our rules (retryingFetch)
// - relay: an upstream event stream turned into StreamParts, with the deadline semantics
// - estimate, tool-arguments: usage when the upstream omits it; tool-call arguments parsed
// - secrets: keys scrubbed from messages, credentials from URLs
// - config: the data/config.json sections providers own
export * from './capabilities.ts'
export * from './catalogue.ts'
export * from './config.ts'
export * from './deadline.ts'
export * from './errors.ts'
export * from './estimate.ts'
export * from './relay.ts'
export * from './secrets.ts'
export * from './settings.ts'
export * from './tool-arguments.ts'
export * from './upstream-error.ts'
export { attempt, retryingFetch, upstream, MAX_RETRY_WAIT_MS, QUICK_TIMEOUT_MS, type RetryLog, type Upstream } from './upstream.ts'
export { modelResolver, NoModelResolver } from './resolver.ts'
