// For plugins that call models (chat, agent, translation, a third party's): the model
// resolver registered by providers-api (contracts/models.ts), looked up at request time,
// or a 503 that says what to add. Declare the dependency on providers-api too
// (`dependencies: ['providers-api']` in fastify-plugin's metadata), so a plugins.json
// without it is refused when it loads rather than on the first request.
import type { ModelResolver } from '../../contracts/models.ts'
import type { Registry } from '../../kernel/registry.ts'
import { createError } from '../../kernel/errors.ts'

export const NoModelResolver = createError<[string]>('AGENT_ERR_NO_MODEL_RESOLVER',
  '%s calls models through the model resolver, and none is registered: add { "name": "providers-api", "module": "./plugins/providers-api" } to plugins.json.', 503)

export function modelResolver (scope: { registry: Registry }, who: string): ModelResolver {
  const resolver = scope.registry.modelResolvers.first()
  if (resolver === undefined) throw new NoModelResolver(who)
  return resolver
}
