// The event form's first-bytes check of a chosen file (web media-picker.tsx): each accepted
// format's magic number passes for its kind only; text, sound and the other kind are refused.
import { describe, expect, it } from 'vitest'
import { looksLike, refusalOf } from '../../web/src/screens/catalog/media-picker.tsx'

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(
    parts.flatMap((part) => (typeof part === 'string' ? [...part].map((c) => c.charCodeAt(0)) : part)),
  )
/** an ISO base media ftyp box: size, 'ftyp', major brand, minor version, compatible brands */
const ftyp = (major: string, ...compatible: string[]) =>
  bytes([0, 0, 0, 16 + 4 * compatible.length], 'ftyp', major, [0, 0, 0, 0], ...compatible)

const images = {
  png: bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13], 'IHDR'),
  jpeg: bytes([0xff, 0xd8, 0xff, 0xe0, 0, 16], 'JFIF'),
  gif: bytes('GIF89a', [1, 0, 1, 0]),
  webp: bytes('RIFF', [36, 0, 0, 0], 'WEBPVP8 '),
  avif: ftyp('avif', 'mif1', 'miaf'),
  avifCompatible: ftyp('mif1', 'avif'),
}
const videos = {
  mp4: ftyp('isom', 'iso2', 'avc1', 'mp41'),
  quicktime: ftyp('qt  ', 'qt  '),
  quicktimeOld: bytes([0, 0, 0, 8], 'wide', [0, 0, 0, 8], 'mdat'),
  webm: bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 1, 0x42, 0x82, 0x84], 'webm'),
  ogg: bytes('OggS', [0, 2, 0, 0]),
}
const neither = {
  text: bytes('this is plain text, not a picture'),
  empty: bytes(),
  m4a: ftyp('M4A ', 'isom'),
  matroska: bytes([0x1a, 0x45, 0xdf, 0xa3, 0xa3, 0x42, 0x86, 0x81, 1, 0x42, 0x82, 0x88], 'matroska'),
  pdf: bytes('%PDF-1.7'),
}

describe('first-bytes check of the event form', () => {
  it.each(Object.entries(images))('takes %s as an image, not as a video', (_, head) => {
    expect(looksLike('image', head)).toBe(true)
    expect(looksLike('video', head)).toBe(false)
  })
  it.each(Object.entries(videos))('takes %s as a video, not as an image', (_, head) => {
    expect(looksLike('video', head)).toBe(true)
    expect(looksLike('image', head)).toBe(false)
  })
  it.each(Object.entries(neither))('refuses %s as either', (_, head) => {
    expect(looksLike('image', head)).toBe(false)
    expect(looksLike('video', head)).toBe(false)
  })
  it("names the first refused file in the server's words", async () => {
    const good = new File([images.png], 'poster.png')
    const bad = new File([neither.text], 'notes.png')
    expect(await refusalOf('image', [good])).toBeNull()
    expect(await refusalOf('image', [good, bad])).toBe(
      '"notes.png" is not an image (JPEG, PNG, GIF, WebP or AVIF).',
    )
    expect(await refusalOf('video', [good])).toBe(
      '"poster.png" is not a video (MP4, WebM, Ogg or QuickTime).',
    )
  })
})
