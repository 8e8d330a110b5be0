// The string formats (uuid, uri, date-time...) ajv-formats defines, registered into the
// SDK's TypeBox: through this module, so the compiled bundle registers them into its own
// instance, not into a second copy of TypeBox in node_modules.
export { registerAjvFormats } from '@fastify/type-provider-typebox'
