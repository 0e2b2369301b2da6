import { describe, expect, it } from 'vitest'
import { byteRangeOf, rangeStillFresh } from '../../server/http/byte-range.ts'

describe('byteRangeOf', () => {
  it.each([
    ['bytes=0-9', { start: 0, end: 9 }],
    ['bytes=10-', { start: 10, end: 99 }],
    ['bytes=90-1000', { start: 90, end: 99 }],
    ['bytes=-10', { start: 90, end: 99 }],
    ['bytes=-1000', { start: 0, end: 99 }],
    ['bytes=99-99', { start: 99, end: 99 }],
    [' Bytes = 5 - 6 ', { start: 5, end: 6 }],
  ])('reads %j of 100 bytes', (header, range) => {
    expect(byteRangeOf(header, 100)).toEqual(range)
  })

  it.each(['bytes=100-', 'bytes=150-200', 'bytes=-0'])('finds %j of 100 bytes unsatisfiable', (header) => {
    expect(byteRangeOf(header, 100)).toBe('unsatisfiable')
  })

  it.each([
    undefined,
    'bytes=-',
    'bytes=9-5',
    'bytes=0-1,5-9',
    'items=0-9',
    'bytes=abc',
    'bytes=1e3-',
    `bytes=0-${'9'.repeat(30)}`,
  ])('answers %j whole', (header) => {
    expect(byteRangeOf(header, 100)).toBeNull()
  })
})

describe('rangeStillFresh', () => {
  const stored = { etag: '"abc.png"', lastModified: new Date('2030-01-02T03:04:05.678Z') }

  it('holds without If-Range, with the same strong tag or the exact Last-Modified date', () => {
    expect(rangeStillFresh(undefined, stored)).toBe(true)
    expect(rangeStillFresh('"abc.png"', stored)).toBe(true)
    expect(rangeStillFresh('Wed, 02 Jan 2030 03:04:05 GMT', stored)).toBe(true)
  })

  it('fails for another tag, a weak one, another date or nonsense', () => {
    expect(rangeStillFresh('"other.png"', stored)).toBe(false)
    expect(rangeStillFresh('W/"abc.png"', stored)).toBe(false)
    expect(rangeStillFresh('Wed, 02 Jan 2030 03:04:06 GMT', stored)).toBe(false)
    expect(rangeStillFresh('soon', stored)).toBe(false)
  })
})
