// Real, small media files made in the test (PNG, MP4, WebM) and the multipart body that carries
// them, so uploads are checked against genuine magic bytes rather than checked-in fixtures.
import { crc32, deflateSync } from 'node:zlib'

const u32 = (n: number) => {
  const bytes = Buffer.alloc(4)
  bytes.writeUInt32BE(n)
  return bytes
}

function pngChunk(type: string, data: Buffer): Buffer {
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data])
  return Buffer.concat([u32(data.length), typeAndData, u32(crc32(typeAndData))])
}

/**
 * A valid RGB PNG of width×height pixels in one colour. `padTo` appends a private ancillary
 * chunk so the file reaches that many bytes while staying a well-formed PNG.
 */
export function pngImage(
  options: { width?: number; height?: number; rgb?: [number, number, number]; padTo?: number } = {},
): Buffer {
  const { width = 2, height = 2, rgb = [200, 30, 60], padTo = 0 } = options
  const header = Buffer.concat([u32(width), u32(height), Buffer.from([8, 2, 0, 0, 0])])
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3).map((_, i) => rgb[i % 3] as number)])
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  const head = Buffer.concat([signature, pngChunk('IHDR', header), pngChunk('IDAT', pixels)])
  const end = pngChunk('IEND', Buffer.alloc(0))
  const room = padTo - head.length - end.length - 12
  const padding = room > 0 ? pngChunk('ruBf', Buffer.alloc(room, 0x2a)) : Buffer.alloc(0)
  return Buffer.concat([head, padding, end])
}

function box(type: string, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content)
  return Buffer.concat([u32(body.length + 8), Buffer.from(type, 'latin1'), body])
}

/** A minimal ISO-BMFF (MP4) file: ftyp (isom), a moov with its movie header, and an mdat. */
export function mp4Video(): Buffer {
  const ftyp = box(
    'ftyp',
    Buffer.from('isom', 'latin1'),
    u32(0x200),
    Buffer.from('isomiso2avc1mp41', 'latin1'),
  )
  const identity = [0x00010000, 0, 0, 0, 0x00010000, 0, 0, 0, 0x40000000].map(u32)
  const mvhd = box(
    'mvhd',
    u32(0), // version 0, no flags
    u32(0), // created
    u32(0), // modified
    u32(1000), // timescale
    u32(0), // duration
    u32(0x00010000), // rate 1.0
    Buffer.from([0x01, 0x00]), // volume 1.0
    Buffer.alloc(10),
    ...identity,
    Buffer.alloc(24),
    u32(1), // next track id
  )
  const mdat = box('mdat', Buffer.from('not really frames, but bytes to seek through', 'latin1'))
  return Buffer.concat([ftyp, box('moov', mvhd), mdat])
}

function ebml(id: number[], data: Buffer): Buffer {
  if (data.length > 126) throw new Error('this writer only makes short EBML elements')
  return Buffer.concat([Buffer.from(id), Buffer.from([0x80 | data.length]), data])
}

/** A minimal WebM file: the EBML header with DocType "webm", then a small Segment. */
export function webmVideo(): Buffer {
  const header = ebml(
    [0x1a, 0x45, 0xdf, 0xa3],
    Buffer.concat([
      ebml([0x42, 0x86], Buffer.from([1])), // EBMLVersion
      ebml([0x42, 0xf7], Buffer.from([1])), // EBMLReadVersion
      ebml([0x42, 0xf2], Buffer.from([4])), // EBMLMaxIDLength
      ebml([0x42, 0xf3], Buffer.from([8])), // EBMLMaxSizeLength
      ebml([0x42, 0x82], Buffer.from('webm', 'latin1')), // DocType
      ebml([0x42, 0x87], Buffer.from([4])), // DocTypeVersion
      ebml([0x42, 0x85], Buffer.from([2])), // DocTypeReadVersion
    ]),
  )
  const info = ebml([0x15, 0x49, 0xa9, 0x66], ebml([0x2a, 0xd7, 0xb1], Buffer.from([0x0f, 0x42, 0x40])))
  return Buffer.concat([header, ebml([0x18, 0x53, 0x80, 0x67], info)])
}

export type Upload = { field: string; filename: string; bytes: Uint8Array; contentType?: string }

/**
 * Encodes text fields and files as multipart/form-data the way a browser does (global FormData),
 * ready for app.inject({ payload, headers }).
 */
export async function multipartBody(
  fields: Record<string, string>,
  files: Upload[] = [],
): Promise<{ payload: Buffer; headers: { 'content-type': string } }> {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) form.append(name, value)
  for (const file of files) {
    const blob = new Blob([new Uint8Array(file.bytes)], {
      type: file.contentType ?? 'application/octet-stream',
    })
    form.append(file.field, blob, file.filename)
  }
  const request = new Request('http://localhost/', { method: 'POST', body: form })
  const contentType = request.headers.get('content-type')
  if (!contentType) throw new Error('FormData gave no content type')
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': contentType } }
}
