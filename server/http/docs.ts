// The machine-readable description of the API (OpenAPI 3), built from the routes' own schemas.
import swagger from '@fastify/swagger'
import type { FastifyInstance } from 'fastify'
import { isValibot, toJson } from './valibot.ts'

const convert = (schema: unknown): unknown => {
  if (isValibot(schema)) return toJson(schema)
  if (schema && typeof schema === 'object' && !Array.isArray(schema)) {
    return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, convert(value)]))
  }
  return schema
}

export async function registerDocs(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Event Management API',
        version: '1.0.0',
        description:
          'REST API under /api/v1 (see API.md). Live updates: Socket.IO at /socket.io (handshake auth {token}; ' +
          "event 'fact'; 'watch' a public room). Admins' activity feed: WebSocket at /api/v1/activity " +
          '(first message {"token", "from": lastPosition}; then every later fact in order).',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: ({ schema, url, route }) => {
      const access = route.config?.access
      const converted = (convert(schema ?? {}) ?? {}) as Record<string, unknown>
      return {
        schema: {
          ...converted,
          ...(access && access !== 'anyone' ? { security: [{ bearer: [] }] } : {}),
          description: `Access: ${Array.isArray(access) ? access.join(', ') : (access ?? 'anyone')}`,
        },
        url,
      }
    },
  })
  app.get(
    '/api/v1/openapi.json',
    { config: { access: 'anyone' }, schema: { summary: 'This description of the API (OpenAPI 3)' } },
    async () => app.swagger(),
  )
}
