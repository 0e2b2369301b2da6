// Who a request's address stands for where limits are counted per address (sign-ups, failed
// sign-ins, reset mails, seats held unpaid, live connections and messages): an IPv4 address as it
// is, an IPv6 one by its /64. A home, a phone or a server is given a whole /64 and may send from any
// of its 2^64 addresses, so counted by the address one client had a fresh budget at every request.
import { isIP } from 'node:net'

/** the 16 bytes' eight groups of an IPv6 address (isIP's), a dotted IPv4 tail included */
export function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase()
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text)
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number]
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head = '', tail] = text.split('::')
  const part = (s: string) => (s === '' ? [] : s.split(':').map((g) => Number.parseInt(g, 16)))
  const front = part(head)
  const back = tail === undefined ? [] : part(tail)
  return [...front, ...new Array(8 - front.length - back.length).fill(0), ...back]
}

/**
 * The address limits count a client by: an IPv4 address itself (an IPv4 address written as IPv6,
 * ::ffff:a.b.c.d, as the IPv4 one), an IPv6 address its network's first 64 bits (2001:db8:1:2::/64),
 * anything else as it is.
 */
export function limitedAddress(ip: string): string {
  const address = ip.split('%')[0] ?? ip
  if (isIP(address) !== 6) return ip
  const g = ipv6Groups(address)
  if (g.slice(0, 5).every((group) => group === 0) && g[5] === 0xffff) {
    const [hi = 0, lo = 0] = g.slice(6)
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`
  }
  return `${g
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`
}
