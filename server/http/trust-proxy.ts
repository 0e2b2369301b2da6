// TRUST_PROXY as a function of (address, hop): the one rule for whose X-Forwarded-For is believed,
// used by Fastify (request.ip) and by the live socket's per-address cap alike.
import proxyAddr from '@fastify/proxy-addr'
import type { Config } from '../config.ts'

export type TrustProxy = (address: string, hop: number) => boolean

export function trustProxyOf(setting: Config['trustProxy']): TrustProxy {
  if (setting === false) return () => false
  if (typeof setting === 'number') return (_address, hop) => hop < setting
  return proxyAddr.compile(setting.split(',').map((entry) => entry.trim()))
}
