// Draws ticket passes as QR code images (PNG) for the mail, in a worker thread of its own
// (pass-images.ts): drawing is CPU work, which on the app's event loop would hold up the requests of
// a sale or of a door. Plain JavaScript, so the thread needs no TypeScript loader, whoever started
// the app (node --import tsx, vitest).
//
// The QR code's modules come from qrcode (its encoding, error correction and mask choice); the PNG
// is written here, one bit a pixel. qrcode's own PNG renderer builds an RGBA image of every pixel
// and packs it back through pngjs, pixel by pixel: 2.3-9.1 ms an image on a slow machine, most of a
// purchase's drawing thread (issue 18). A QR code is black and white on a grid, so each module row
// is one line of bits, written once and repeated by PNG's "Up" filter as rows of zeros.
import { crc32, deflateSync } from 'node:zlib'
import QRCode from 'qrcode'

/** error correction M, 4 quiet modules around the code, 4 pixels a module (the mail shows 240 px) */
const LEVEL = 'M'
const MARGIN = 4
const SCALE = 4

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
/** PNG's filter bytes: a line as it is, or as its difference from the line above */
const FILTER_NONE = 0
const FILTER_UP = 2

/** a PNG chunk: length, type, data, and the CRC-32 of type and data */
function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length)
  out.writeUInt32BE(data.length, 0)
  out.write(type, 4, 'latin1')
  data.copy(out, 8)
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length)
  return out
}

/** @param {string} code @returns {Buffer} a PNG of the code: 1-bit grey, white 1, black 0 */
export function drawOne(code) {
  // One byte-mode segment: a pass code is ASCII (base64url and dots), which byte mode encodes as it
  // is, in the same QR version as qrcode's own split into modes (version 10 for a pass code), and
  // without its search for that split (a shortest path over the text: about half of the matrix's time).
  const { modules } = QRCode.create([{ data: code, mode: 'byte' }], { errorCorrectionLevel: LEVEL })
  const size = modules.size
  const pixels = (size + 2 * MARGIN) * SCALE
  const lineBytes = Math.ceil(pixels / 8)
  const line = 1 + lineBytes
  // every byte white (the quiet zone and the padding bits), filter None; then the dark modules
  const raw = Buffer.alloc(line * pixels, 0xff)
  for (let y = 0; y < pixels; y += SCALE) {
    const at = y * line
    raw[at] = FILTER_NONE
    const row = y / SCALE - MARGIN
    if (row >= 0 && row < size) {
      for (let col = 0; col < size; col++) {
        if (!modules.data[row * size + col]) continue
        const x0 = (col + MARGIN) * SCALE
        for (let x = x0; x < x0 + SCALE; x++) raw[at + 1 + (x >> 3)] &= ~(0x80 >> (x & 7))
      }
    }
    // the module row's other lines: the same pixels, so zeros under the Up filter
    for (let k = 1; k < SCALE && y + k < pixels; k++) {
      const next = (y + k) * line
      raw[next] = FILTER_UP
      raw.fill(0, next + 1, next + line)
    }
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(pixels, 0)
  header.writeUInt32BE(pixels, 4)
  header[8] = 1 // bit depth
  header[9] = 0 // grey
  // compression, filter method and interlacing: 0
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

/** @param {{ codes: string[] }} task @returns {Promise<Uint8Array[]>} */
export default async function draw({ codes }) {
  return codes.map((code) => new Uint8Array(drawOne(code)))
}
