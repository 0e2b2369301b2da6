// The address per-address limits count a client by (server/http/client-address.ts): IPv4 as it is,
// IPv6 by its /64, an IPv4 address written as IPv6 as the IPv4 one.
import { describe, expect, it } from 'vitest'
import { limitedAddress } from '../../server/http/client-address.ts'

describe('the address a client is limited by', () => {
  it('is an IPv4 address itself', () => {
    expect(limitedAddress('203.0.113.7')).toBe('203.0.113.7')
  })

  it('is an IPv6 address’s /64, however it is written', () => {
    const network = '2001:db8:1:2::/64'
    for (const address of [
      '2001:db8:1:2::1',
      '2001:0db8:0001:0002:ffff:ffff:ffff:ffff',
      '2001:DB8:1:2:a:b:c:d',
      '2001:db8:1:2::5%eth0',
    ])
      expect(limitedAddress(address)).toBe(network)
    expect(limitedAddress('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64')
    expect(limitedAddress('::1')).toBe('0:0:0:0::/64')
  })

  it('is the IPv4 address an IPv6 one carries as ::ffff:a.b.c.d', () => {
    expect(limitedAddress('::ffff:198.51.100.4')).toBe('198.51.100.4')
    expect(limitedAddress('::ffff:c633:6404')).toBe('198.51.100.4')
  })

  it('is anything else as it is', () => {
    expect(limitedAddress('')).toBe('')
    expect(limitedAddress('not an address')).toBe('not an address')
  })
})
