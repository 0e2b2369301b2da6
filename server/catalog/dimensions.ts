// An image's size as its header declares it (PNG IHDR, GIF logical screen, WebP VP8/VP8L/VP8X,
// JPEG SOFn, AVIF ispe), read from the bytes as they arrive and without decoding anything, so an
// image too large to show safely is refused before it is stored.

export type Dimensions = { width: number; height: number }
/** The size once known; 'unreadable' when the header is not what its format says; undefined: need more bytes. */
export type Reading = Dimensions | 'unreadable' | undefined

export interface DeclaredSize {
  /** the file's next bytes, in order */
  feed(chunk: Buffer): Reading
  /** the file has ended */
  end(): Dimensions | 'unreadable'
}

/** How much of an AVIF file is kept to find its item properties (ICC profiles live there too). */
const AVIF_HEAD = 256 * 1024

/** For formats whose size sits in a fixed place near the start: keeps the first bytes and reads them. */
function fromHead(keep: number, read: (head: Buffer, final: boolean) => Reading): DeclaredSize {
  let head = Buffer.alloc(0)
  const final = () => read(head, true) ?? 'unreadable'
  return {
    feed(chunk) {
      if (head.length < keep) head = Buffer.concat([head, chunk.subarray(0, keep - head.length)])
      return head.length >= keep ? final() : read(head, false)
    },
    end: final,
  }
}

const latin1 = (bytes: Buffer, from: number, to: number) => bytes.toString('latin1', from, to)

function png(head: Buffer, final: boolean): Reading {
  if (head.length < 24) return final ? 'unreadable' : undefined
  if (latin1(head, 12, 16) !== 'IHDR') return 'unreadable'
  return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) }
}

function gif(head: Buffer, final: boolean): Reading {
  if (head.length < 10) return final ? 'unreadable' : undefined
  return { width: head.readUInt16LE(6), height: head.readUInt16LE(8) }
}

function webp(head: Buffer, final: boolean): Reading {
  if (head.length < 30) return final ? 'unreadable' : undefined
  switch (latin1(head, 12, 16)) {
    case 'VP8 ': // lossy: a key frame's start code, then 14-bit sizes
      if (head[23] !== 0x9d || head[24] !== 0x01 || head[25] !== 0x2a) return 'unreadable'
      return { width: head.readUInt16LE(26) & 0x3fff, height: head.readUInt16LE(28) & 0x3fff }
    case 'VP8L': {
      // lossless: a signature byte, then width − 1 and height − 1 in 14 bits each
      if (head[20] !== 0x2f) return 'unreadable'
      const bits = head.readUInt32LE(21)
      return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 }
    }
    case 'VP8X': // extended: the canvas, width − 1 and height − 1 in 24 bits each
      return { width: head.readUIntLE(24, 3) + 1, height: head.readUIntLE(27, 3) + 1 }
    default:
      return 'unreadable'
  }
}

/**
 * AVIF (ISO-BMFF): every image item has an ispe property (meta → iprp → ipco → ispe). The largest
 * width and height declared by any of them count (a grid's tiles are smaller than the whole);
 * known once the meta box has arrived whole.
 */
function avif(head: Buffer, final: boolean): Reading {
  let found: Dimensions | undefined
  let metaWhole = false
  const walk = (from: number, to: number, depth: number) => {
    let at = from
    while (at + 8 <= to && depth < 4) {
      let size = head.readUInt32BE(at)
      const type = latin1(head, at + 4, at + 8)
      let header = 8
      if (size === 1) {
        if (at + 16 > to) return
        size = Number(head.readBigUInt64BE(at + 8))
        header = 16
      } else if (size === 0) size = to - at
      if (size < header) return
      const end = Math.min(at + size, to)
      if (type === 'meta') {
        metaWhole = at + size <= head.length
        walk(at + header + 4, end, depth + 1) // a full box: version and flags first
      } else if (type === 'iprp' || type === 'ipco') walk(at + header, end, depth + 1)
      else if (type === 'ispe' && at + header + 12 <= end) {
        const width = head.readUInt32BE(at + header + 4)
        const height = head.readUInt32BE(at + header + 8)
        found = { width: Math.max(width, found?.width ?? 0), height: Math.max(height, found?.height ?? 0) }
      }
      at += size
    }
  }
  walk(0, head.length, 0)
  if (metaWhole || final) return found ?? 'unreadable'
  return undefined
}

const isFrameHeader = (marker: number) =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc

/**
 * JPEG: the frame header (SOFn) follows any number of segments (EXIF, ICC profiles, XMP, each up
 * to 64 KB), so segments are walked as the bytes arrive, skipping their contents without keeping
 * them. The scan ends at the frame header, or at the image data (SOS) with none before it.
 */
function jpeg(): DeclaredSize {
  let phase: 'start' | 'marker' | 'code' | 'length' | 'skip' | 'frame' = 'start'
  let field: number[] = []
  let code = 0
  let skip = 0
  return {
    feed(chunk) {
      let i = 0
      while (i < chunk.length) {
        if (phase === 'skip') {
          const passed = Math.min(skip, chunk.length - i)
          skip -= passed
          i += passed
          if (skip === 0) phase = 'marker'
          continue
        }
        const byte = chunk[i++] as number
        switch (phase) {
          case 'start':
            field.push(byte)
            if (field.length < 2) break
            if (field[0] !== 0xff || field[1] !== 0xd8) return 'unreadable'
            phase = 'marker'
            break
          case 'marker':
            if (byte !== 0xff) return 'unreadable'
            phase = 'code'
            break
          case 'code':
            if (byte === 0xff) break // fill bytes before a marker
            if (byte === 0x01 || (byte >= 0xd0 && byte <= 0xd8)) {
              phase = 'marker' // markers without a segment
              break
            }
            if (byte === 0xd9 || byte === 0xda) return 'unreadable' // the end, or the image data, and no frame
            code = byte
            field = []
            phase = 'length'
            break
          case 'length': {
            field.push(byte)
            if (field.length < 2) break
            const length = ((field[0] as number) << 8) | (field[1] as number)
            if (length < 2) return 'unreadable'
            field = []
            skip = length - 2
            phase = isFrameHeader(code) ? 'frame' : skip > 0 ? 'skip' : 'marker'
            break
          }
          case 'frame':
            // precision, then height and width
            field.push(byte)
            if (field.length < 5) break
            return {
              height: ((field[1] as number) << 8) | (field[2] as number),
              width: ((field[3] as number) << 8) | (field[4] as number),
            }
        }
      }
      return undefined
    },
    end: () => 'unreadable',
  }
}

/** The size reader for an accepted image type, by its extension. */
export function declaredSize(extension: string): DeclaredSize | null {
  switch (extension) {
    case 'png':
      return fromHead(24, png)
    case 'gif':
      return fromHead(10, gif)
    case 'webp':
      return fromHead(30, webp)
    case 'avif':
      return fromHead(AVIF_HEAD, avif)
    case 'jpg':
      return jpeg()
    default:
      return null
  }
}
