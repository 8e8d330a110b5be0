// 404 for an unknown path, 405 with `Allow` for a known path and a wrong method.
// Fastify only knows "no route"; a shadow router of every (method, path) tells the two apart.
// While the plugins load (the early generation), a 503 `starting` naming those still loading.
import FindMyWay, { type HTTPMethod } from 'find-my-way'
import type { FastifyInstance } from 'fastify'
import { Errors } from '@agentd/sdk'
import { sendError } from './errors.ts'

const METHODS: HTTPMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']

export function installNotFound (app: FastifyInstance, loading?: () => string[]): void {
  const shadow = FindMyWay({ ignoreTrailingSlash: true })
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    for (const m of methods) {
      if (m === 'OPTIONS' || route.url === '*' || route.url === '/*') continue
      try { shadow.on(m as HTTPMethod, route.url, () => undefined) } catch { /* duplicate shapes are fine */ }
    }
  })
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0]
    if (loading !== undefined) {
      const names = loading()
      void reply.header('retry-after', '1')
      return sendError(reply, new Errors.STARTING(names.length === 0 ? 'loading plugins' : `loading plugins: ${names.join(', ')}`))
    }
    const allowed = METHODS.filter(m => shadow.find(m, url) !== null)
    if (allowed.length > 0) {
      void reply.header('allow', [...allowed, 'OPTIONS'].join(', '))
      return sendError(reply, new Errors.METHOD_NOT_ALLOWED(request.method, url, allowed.join(', ')))
    }
    return sendError(reply, new Errors.NOT_FOUND(`No route ${request.method} ${url}. GET /api/index lists the API; GET /docs documents it.`))
  })
}
