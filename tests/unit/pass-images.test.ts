// The mail's pass images are drawn in a worker thread whose V8 heap is bounded (PASS_THREAD_LIMITS):
// the bound must leave room for the largest order a mail carries, and a batch far larger still.
import { afterAll, describe, expect, it } from 'vitest'
import { PASS_THREAD_LIMITS, passImages } from '../../server/mail/pass-images.ts'

const images = passImages()
afterAll(() => images.close())

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

describe('the pass drawing thread', () => {
  it('has a bounded heap', () => {
    expect(PASS_THREAD_LIMITS.maxYoungGenerationSizeMb).toBeLessThanOrEqual(8)
    expect(PASS_THREAD_LIMITS.maxOldGenerationSizeMb).toBeLessThanOrEqual(64)
  })

  it('draws 1,000 passes of long codes in one task within it, then more', async () => {
    const codes = Array.from({ length: 1000 }, (_, i) => `${'P'.repeat(200)}-${i}`)
    const drawn = await images.draw(codes)
    expect(drawn).toHaveLength(1000)
    for (const png of drawn) expect(png.subarray(0, 8).equals(PNG)).toBe(true)
    // distinct codes, distinct images
    expect(new Set(drawn.map((png) => png.toString('base64'))).size).toBe(1000)
    const again = await images.draw(['one more'])
    expect(again[0]?.subarray(0, 8).equals(PNG)).toBe(true)
    // a correctness test, not a timed one: 1,000 drawings took over 5 s on a slow CI machine
  }, 60_000)

  it('adds nothing per mail: 30 drawings in a row raise no listener warning', async () => {
    const warnings: Error[] = []
    const warned = (warning: Error) => warnings.push(warning)
    process.on('warning', warned)
    try {
      for (let i = 0; i < 30; i++) await images.draw([`mail ${i}`])
      await new Promise((r) => setImmediate(r))
    } finally {
      process.off('warning', warned)
    }
    expect(warnings.map((w) => w.name)).not.toContain('MaxListenersExceededWarning')
  })
})
