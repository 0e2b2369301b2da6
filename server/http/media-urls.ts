// Media URLs as clients get them (API.md: images[].url and videos[].url are absolute): the base is
// PUBLIC_URL in production, the request's own origin otherwise. Used by every area that shows media.
import type { FastifyRequest } from 'fastify'
import type { Config } from '../config.ts'

/** A stored media URL (/uploads/<name>) made absolute against an origin; others as they are. */
export const absoluteMedia = (url: string, base: string) =>
  base && url.startsWith('/') ? `${base}${url}` : url

/**
 * The origin media URLs are made absolute against: PUBLIC_URL in production; in development and
 * tests the request's own (protocol and Host as Fastify sees them), so a phone on the LAN or a
 * test server on a random port gets URLs it can load. A Host that is not a plain host[:port] falls
 * back to PUBLIC_URL.
 */
export function mediaBaseOf(
  request: Pick<FastifyRequest, 'protocol' | 'host'>,
  config: Pick<Config, 'env' | 'publicUrl'>,
): string {
  if (config.env === 'production') return config.publicUrl
  const host = request.host
  return typeof host === 'string' && /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host)
    ? `${request.protocol}://${host}`
    : config.publicUrl
}
