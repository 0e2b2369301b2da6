// Serves the built web app; any other GET that asks for HTML gets index.html (client routing).
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'

export async function registerWeb(app: FastifyInstance, webDist: string) {
  const built = existsSync(join(webDist, 'index.html'))
  if (built) {
    await app.register(fastifyStatic, {
      root: webDist,
      prefix: '/',
      index: 'index.html',
      setHeaders(reply, path) {
        reply.header(
          'cache-control',
          path.includes(`${join(webDist, 'assets')}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        )
      },
    })
  }
  app.setNotFoundHandler((request, reply) => {
    const wantsPage =
      request.method === 'GET' &&
      !request.url.startsWith('/api/') &&
      request.headers.accept?.includes('text/html')
    if (wantsPage && built) return reply.header('cache-control', 'no-cache').sendFile('index.html')
    if (wantsPage)
      return reply.code(404).send({ message: 'The web app is not built yet: run npm run build:web' })
    const path = request.url.split('?')[0] ?? ''
    return reply.code(404).send({ message: `Not found: ${request.method} ${shortened(path)}` })
  })
}

/** a path as a refusal names it: its first PATH_SHOWN characters, not a megabyte sent back */
const PATH_SHOWN = 200
const shortened = (path: string) => (path.length > PATH_SHOWN ? `${path.slice(0, PATH_SHOWN)}…` : path)
