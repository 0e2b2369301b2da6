// The built web app's weight: no JavaScript file of web/dist over 500 kB (minified, before
// compression; the size Vite reports), so no screen waits on one long download and parse. The e2e
// global setup builds web/dist as production does.
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { requireWebBuild, webDist } from '../support/web-build.ts'

/** 500 kB as Vite counts it (1 kB = 1,000 bytes) */
const LIMIT = 500_000

describe('the built web app', () => {
  it('has no JavaScript chunk over 500 kB', async () => {
    requireWebBuild()
    const files = (await readdir(webDist, { recursive: true })).filter((file) => file.endsWith('.js'))
    expect(files.length).toBeGreaterThan(10)
    const sizes = await Promise.all(
      files.map(async (file) => ({ file, bytes: (await stat(join(webDist, file))).size })),
    )
    const heaviest = sizes.reduce((a, b) => (b.bytes > a.bytes ? b : a))
    console.info(`heaviest chunk: ${heaviest.file}, ${(heaviest.bytes / 1000).toFixed(1)} kB`)
    expect(sizes.filter(({ bytes }) => bytes > LIMIT)).toEqual([])
  })
})
