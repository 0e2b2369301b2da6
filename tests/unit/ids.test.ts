// Ids come from random bytes drawn from the system a pool at a time (server/ids.ts): every id is
// still its own, across refills of the pool, and time-ordered by its first 8 characters.
import { describe, expect, it } from 'vitest'
import { newId, randomPooled } from '../../server/ids.ts'

describe('newId', () => {
  it('gives 24 hex characters, each id its own across many refills of the pool', () => {
    const ids = Array.from({ length: 20_000 }, () => newId())
    for (const id of ids.slice(0, 50)) expect(id).toMatch(/^[0-9a-f]{24}$/)
    expect(new Set(ids).size).toBe(ids.length)
    // no two ids share their random part either
    expect(new Set(ids.map((id) => id.slice(8))).size).toBe(ids.length)
  })

  it('starts with the second it was made in', () => {
    expect(newId(Date.UTC(2030, 0, 1)).slice(0, 8)).toBe((Date.UTC(2030, 0, 1) / 1000).toString(16))
  })

  it('hands out pooled bytes of the length asked for, never the same ones twice in a row', () => {
    const seen = new Set<string>()
    for (let i = 0; i < 2_000; i++) {
      const bytes = randomPooled(14)
      expect(bytes.length).toBe(14)
      seen.add(bytes.toString('hex'))
    }
    expect(seen.size).toBe(2_000)
  })
})
