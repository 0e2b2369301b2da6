// Image dimensions: a tiny file can declare a picture of billions of pixels, which every browser
// showing the event would try to decode. The size each format's header declares (PNG IHDR, JPEG
// SOFn, GIF logical screen, WebP VP8/VP8L/VP8X, AVIF ispe) is held to IMAGE_MAX_SIDE (20000 px)
// and IMAGE_MAX_MEGAPIXELS (40) as the upload arrives; a refused image names the file and its
// size, and nothing of the request is kept. The files are made here, a few hundred bytes each.
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { crc32, deflateSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventView } from '../../contracts/catalog.ts'
import { bearer, organizerSession, type Session } from '../support/accounts.ts'
import { startApp, type TestApp } from '../support/app.ts'
import { dbRows } from '../support/db.ts'
import { multipartBody, pngImage } from '../support/media.ts'
import { nextYear } from '../support/sales.ts'

let t: TestApp
let organizer: Session

beforeAll(async () => {
  t = await startApp()
  organizer = await organizerSession(t.app, 'Photographer')
})
afterAll(async () => {
  await t?.close()
})

// --- tiny images that declare any size -------------------------------------------------------

const u32 = (n: number) => {
  const bytes = Buffer.alloc(4)
  bytes.writeUInt32BE(n)
  return bytes
}
const u32le = (n: number) => {
  const bytes = Buffer.alloc(4)
  bytes.writeUInt32LE(n)
  return bytes
}
const u16 = (n: number) => Buffer.from([n >> 8, n & 0xff])
const u16le = (n: number) => Buffer.from([n & 0xff, n >> 8])
const u24le = (n: number) => Buffer.from([n & 0xff, (n >> 8) & 0xff, n >> 16])
const ascii = (text: string) => Buffer.from(text, 'latin1')

function pngChunk(type: string, data: Buffer): Buffer {
  const typeAndData = Buffer.concat([ascii(type), data])
  return Buffer.concat([u32(data.length), typeAndData, u32(crc32(typeAndData))])
}

/** A PNG whose header declares width×height, padded to about 1 KB, with a token of image data. */
function pngDeclaring(width: number, height: number): Buffer {
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', Buffer.concat([u32(width), u32(height), Buffer.from([8, 2, 0, 0, 0])])),
    pngChunk('ruBf', Buffer.alloc(900, 0x2a)),
    pngChunk('IDAT', deflateSync(Buffer.alloc(64))),
    pngChunk('IEND', Buffer.alloc(0)),
  ])
}

const segment = (marker: number, data: Buffer) =>
  Buffer.concat([Buffer.from([0xff, marker]), u16(data.length + 2), data])

/**
 * A baseline JPEG whose frame header (SOF0) declares width×height, after `exifBytes` of EXIF in
 * APP1 segments (each at most 64 KB), so the frame header can lie far beyond the first bytes.
 */
function jpegDeclaring(width: number, height: number, exifBytes = 0): Buffer {
  const huffman = (tableClass: number) => Buffer.from([tableClass, 1, ...Array(15).fill(0), 0])
  const exif: Buffer[] = []
  for (let left = exifBytes; left > 0; left -= 60_000) {
    exif.push(segment(0xe1, Buffer.concat([ascii('Exif\0\0'), Buffer.alloc(Math.min(left, 60_000), 0x11)])))
  }
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xe0, Buffer.from([0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0])),
    ...exif,
    segment(0xdb, Buffer.concat([Buffer.from([0]), Buffer.alloc(64, 1)])),
    segment(0xc0, Buffer.concat([Buffer.from([8]), u16(height), u16(width), Buffer.from([1, 1, 0x11, 0])])),
    segment(0xc4, huffman(0x00)),
    segment(0xc4, huffman(0x10)),
    segment(0xda, Buffer.from([1, 1, 0, 0, 0x3f, 0])),
    Buffer.from([0x3f, 0xff, 0xd9]),
  ])
}

/** A GIF whose logical screen is width×height, holding one 1×1 frame. */
function gifDeclaring(width: number, height: number): Buffer {
  return Buffer.concat([
    ascii('GIF89a'),
    u16le(width),
    u16le(height),
    Buffer.from([0x00, 0, 0]),
    Buffer.from([0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0]),
    Buffer.from([0x02, 0x02, 0x4c, 0x01, 0x00]),
    Buffer.from([0x3b]),
  ])
}

function riff(chunkType: string, data: Buffer): Buffer {
  const padded = data.length % 2 ? Buffer.concat([data, Buffer.alloc(1)]) : data
  const chunk = Buffer.concat([ascii(chunkType), u32le(data.length), padded])
  return Buffer.concat([ascii('RIFF'), u32le(chunk.length + 4), ascii('WEBP'), chunk])
}

/** WebP in each of its three kinds, declaring width×height (VP8 and VP8L: at most 16383). */
const webpDeclaring = {
  VP8X: (width: number, height: number) =>
    riff('VP8X', Buffer.concat([Buffer.alloc(4), u24le(width - 1), u24le(height - 1)])),
  VP8L: (width: number, height: number) =>
    riff(
      'VP8L',
      Buffer.concat([Buffer.from([0x2f]), u32le((width - 1) | ((height - 1) << 14)), Buffer.alloc(16)]),
    ),
  VP8: (width: number, height: number) =>
    riff(
      'VP8 ',
      Buffer.concat([
        Buffer.from([0x50, 0x02, 0x00, 0x9d, 0x01, 0x2a]),
        u16le(width),
        u16le(height),
        Buffer.alloc(16),
      ]),
    ),
}

function box(type: string, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content)
  return Buffer.concat([u32(body.length + 8), ascii(type), body])
}

/** An AVIF whose image item's ispe property declares width×height. */
function avifDeclaring(width: number, height: number): Buffer {
  const fullBox = (type: string, ...content: Buffer[]) => box(type, u32(0), ...content)
  return Buffer.concat([
    box('ftyp', ascii('avif'), u32(0), ascii('avifmif1miaf')),
    fullBox(
      'meta',
      fullBox('hdlr', u32(0), ascii('pict'), Buffer.alloc(12), Buffer.from([0])),
      fullBox('pitm', u16(1)),
      box('iprp', box('ipco', fullBox('ispe', u32(width), u32(height)))),
    ),
    box('mdat', Buffer.alloc(32, 0x55)),
  ])
}

// --- the requests ----------------------------------------------------------------------------

const fields = (title: string) => ({
  title,
  description: 'Photographs of the venue.',
  date: `${nextYear}-09-01`,
  time: '19:00',
  location: 'Kochi',
  category: 'Music',
  ticketTypes: JSON.stringify([{ type: 'General Admission', price: 250, quantity: 60 }]),
})

async function submit(title: string, filename: string, bytes: Buffer) {
  const form = await multipartBody(fields(title), [{ field: 'images', filename, bytes }])
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/event/create',
    payload: form.payload,
    headers: { ...form.headers, ...bearer(organizer.token) },
  })
}

const stored = () => readdirSync(t.config.uploadsDir).filter((name) => name !== '.incoming')
const incoming = () => readdirSync(join(t.config.uploadsDir, '.incoming'))
const eventTitles = async () =>
  (await dbRows<{ title: string }>(t.app, 'SELECT title FROM events')).map((row) => row.title)

const tooLarge = (filename: string, width: number, height: number) =>
  `"${filename}" is ${width}×${height} pixels; images may be at most 20000 pixels on a side and 40 megapixels.`

describe('POST /api/v1/event/create with an image declaring more pixels than allowed', () => {
  it.each([
    ['a 1 KB PNG declaring 50000×50000', 'huge.png', pngDeclaring(50_000, 50_000), 50_000, 50_000],
    ['a PNG 30000 pixels wide and 10 tall', 'banner.png', pngDeclaring(30_000, 10), 30_000, 10],
    [
      'a PNG within the side cap but of 100 megapixels',
      'wide.png',
      pngDeclaring(10_000, 10_000),
      10_000,
      10_000,
    ],
    ['a JPEG declaring 60000×60000', 'huge.jpg', jpegDeclaring(60_000, 60_000), 60_000, 60_000],
    [
      'a JPEG whose frame header comes after 150 KB of EXIF',
      'exif.jpg',
      jpegDeclaring(40_000, 30_000, 150_000),
      40_000,
      30_000,
    ],
    ['a GIF whose screen is 65535×65535', 'huge.gif', gifDeclaring(65_535, 65_535), 65_535, 65_535],
    ['a GIF of 10000×10000 (100 megapixels)', 'square.gif', gifDeclaring(10_000, 10_000), 10_000, 10_000],
    [
      'an extended WebP (VP8X) of 30000×30000',
      'huge.webp',
      webpDeclaring.VP8X(30_000, 30_000),
      30_000,
      30_000,
    ],
    [
      'a lossless WebP (VP8L) of 16383×16383',
      'lossless.webp',
      webpDeclaring.VP8L(16_383, 16_383),
      16_383,
      16_383,
    ],
    ['a lossy WebP (VP8) of 16383×16383', 'lossy.webp', webpDeclaring.VP8(16_383, 16_383), 16_383, 16_383],
    ['an AVIF whose ispe says 50000×50000', 'huge.avif', avifDeclaring(50_000, 50_000), 50_000, 50_000],
  ])(
    'refuses %s with 400, naming the file and its size; nothing is kept',
    async (label, filename, bytes, width, height) => {
      const before = stored()

      const res = await submit(`Too big: ${label}`, filename, bytes)

      expect(res.statusCode, res.body).toBe(400)
      expect(res.json()).toEqual({
        message: tooLarge(filename, width, height),
        issues: [{ field: 'images', message: tooLarge(filename, width, height) }],
      })
      expect(stored()).toEqual(before)
      expect(incoming()).toEqual([])
      expect(await eventTitles()).not.toContain(`Too big: ${label}`)
    },
  )

  const jfif = segment(0xe0, Buffer.from([0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]))
  it.each([
    [
      'a JPEG with no frame header before its image data',
      'frameless.jpg',
      Buffer.concat([
        Buffer.from([0xff, 0xd8]),
        jfif,
        segment(0xda, Buffer.from([1, 1, 0, 0, 0x3f, 0])),
        Buffer.from([0x3f, 0xff, 0xd9]),
      ]),
    ],
    [
      'a JPEG whose last segment claims to run past its end',
      'overrun.jpg',
      Buffer.concat([
        Buffer.from([0xff, 0xd8]),
        jfif,
        Buffer.from([0xff, 0xfe, 0x40, 0x00]),
        Buffer.alloc(64, 0x2a),
        Buffer.from([0xff, 0xd9]),
      ]),
    ],
    [
      'an AVIF without item properties',
      'bare.avif',
      Buffer.concat([
        box('ftyp', ascii('avif'), u32(0), ascii('avifmif1miaf')),
        box('mdat', Buffer.alloc(64, 0x55)),
      ]),
    ],
  ])('refuses %s as damaged, its size unknown', async (label, filename, bytes) => {
    const res = await submit(`Damaged: ${label}`, filename, bytes)

    expect(res.statusCode, res.body).toBe(400)
    expect(res.json().message).toBe(`"${filename}" is damaged: its size cannot be read.`)
    expect(incoming()).toEqual([])
    expect(await eventTitles()).not.toContain(`Damaged: ${label}`)
  })
})

describe('POST /api/v1/event/create with images of an ordinary size', () => {
  it.each([
    ['a real 2×2 PNG', 'small.png', pngImage(), 'png'],
    [
      'a PNG exactly at both caps (20000×2000, 40 megapixels)',
      'edge.png',
      pngDeclaring(20_000, 2_000),
      'png',
    ],
    ['a JPEG of 4000×3000 after 150 KB of EXIF', 'camera.jpg', jpegDeclaring(4_000, 3_000, 150_000), 'jpg'],
    ['a GIF of 640×480', 'small.gif', gifDeclaring(640, 480), 'gif'],
    ['a WebP (VP8X) of 1920×1080', 'small.webp', webpDeclaring.VP8X(1_920, 1_080), 'webp'],
    ['a WebP (VP8L) of 800×600', 'small-lossless.webp', webpDeclaring.VP8L(800, 600), 'webp'],
    ['a WebP (VP8) of 800×600', 'small-lossy.webp', webpDeclaring.VP8(800, 600), 'webp'],
    ['an AVIF of 1200×800', 'small.avif', avifDeclaring(1_200, 800), 'avif'],
  ])('accepts %s and stores it', async (label, filename, bytes, extension) => {
    const res = await submit(`Fine: ${label}`, filename, bytes)

    expect(res.statusCode, res.body).toBe(201)
    // media URLs are absolute (API.md): the request's own origin here
    const images = (res.json().event as EventView).images.map((image) => new URL(image.url).pathname)
    expect(images).toEqual([expect.stringMatching(new RegExp(`^/uploads/[A-Za-z0-9_-]+\\.${extension}$`))])
    expect(stored()).toContain(images[0]?.replace('/uploads/', ''))
    expect(await eventTitles()).toContain(`Fine: ${label}`)
  })
})
