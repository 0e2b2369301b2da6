// Event media: multipart files streamed to a staging folder while their first bytes are checked
// (magic bytes, not the name or declared type), then kept under server-made names once the event
// is committed: in the uploads folder (MEDIA_STORE=disk, here) or in PostgreSQL (database,
// pg-media.ts). A refused request leaves nothing behind.
import { once } from 'node:events'
import { createWriteStream } from 'node:fs'
import { mkdir, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { Transform, type TransformCallback } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'
import { fileTypeFromBuffer } from 'file-type'
import { DomainError, invalid, tooLarge } from '../errors.ts'
import { newId } from '../ids.ts'
import { type DeclaredSize, declaredSize, type Reading } from './dimensions.ts'

export type MediaKind = 'image' | 'video'

const accepted: Record<MediaKind, Record<string, string>> = {
  image: {
    'image/jpeg': 'jpg',
    'image/png': 'png',
    'image/gif': 'gif',
    'image/webp': 'webp',
    'image/avif': 'avif',
  },
  video: { 'video/mp4': 'mp4', 'video/webm': 'webm', 'video/ogg': 'ogv', 'video/quicktime': 'mov' },
}
const describe: Record<MediaKind, string> = {
  image: 'an image (JPEG, PNG, GIF, WebP or AVIF)',
  video: 'a video (MP4, WebM, Ogg or QuickTime)',
}
const SAMPLE = 4100

export type StagedFile = {
  kind: MediaKind
  staged: string
  name: string
  /** the type read from the content's first bytes (image/png, video/mp4, …) */
  contentType: string
  bytes: number
  closed: Promise<unknown>
}

const shown = (filename: string) => JSON.stringify(filename.slice(0, 80))

export type ImageCaps = { imageMaxSide: number; imageMaxPixels: number }

const refused = (message: string) => invalid(message, [{ field: 'images', message }])

/**
 * Whether an image's declared size is within the caps: a small file can declare a picture of
 * billions of pixels, which every browser showing the event would try to decode.
 */
function checkSize(filename: string, size: Reading, caps: ImageCaps) {
  if (size === undefined) return
  if (size === 'unreadable') throw refused(`${shown(filename)} is damaged: its size cannot be read.`)
  const { width, height } = size
  if (width > caps.imageMaxSide || height > caps.imageMaxSide || width * height > caps.imageMaxPixels) {
    throw refused(
      `${shown(filename)} is ${width}×${height} pixels; images may be at most ${caps.imageMaxSide} pixels ` +
        `on a side and ${caps.imageMaxPixels / 1_000_000} megapixels.`,
    )
  }
}

/**
 * Whether an image of this type ends where its format says it ends (a truncated upload does
 * not): PNG with its IEND chunk, JPEG with its end-of-image marker, GIF with its trailer, WebP
 * with the length its RIFF header announces. Other types are taken as they are.
 */
function whole(extension: string, head: Buffer, tail: Buffer, bytes: number): boolean {
  switch (extension) {
    case 'png':
      return tail.subarray(-8).equals(Buffer.from([0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]))
    case 'jpg':
      return tail.subarray(-32).includes(Buffer.from([0xff, 0xd9]))
    case 'gif':
      return tail.at(-1) === 0x3b
    case 'webp':
      return head.length >= 8 && head.readUInt32LE(4) + 8 === bytes
    default:
      return true
  }
}

/**
 * Counts bytes against the caps, checks the content's type from its first bytes and, for an image,
 * its declared size from its header (read on while the bytes arrive: a JPEG's comes late).
 */
class Inspector extends Transform {
  bytes = 0
  extension: string | null = null
  mime = ''
  /** reads an image's declared size until it is known (then null) */
  private size: DeclaredSize | null = null
  private sample: Buffer[] = []
  private sampled = 0
  private head = Buffer.alloc(0)
  private tail = Buffer.alloc(0)

  constructor(
    private readonly kind: MediaKind,
    private readonly filename: string,
    private readonly maxBytes: number,
    private readonly budget: { left: number },
    private readonly caps: ImageCaps,
  ) {
    super()
  }

  /** Feeds the image's next bytes to its size reader, until the size is known. */
  private measure(chunk: Buffer) {
    if (!this.size) return
    const reading = this.size.feed(chunk)
    if (reading !== undefined) this.size = null
    checkSize(this.filename, reading, this.caps)
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
    this.bytes += chunk.length
    this.budget.left -= chunk.length
    if (this.bytes > this.maxBytes) {
      const mb = Math.round(this.maxBytes / 1024 / 1024)
      return done(
        tooLarge(`${shown(this.filename)} is larger than ${mb} MB, the limit for one ${this.kind}.`),
      )
    }
    if (this.budget.left < 0)
      return done(tooLarge('The files together are larger than this request may carry.'))
    this.tail = Buffer.concat([this.tail, chunk.subarray(-32)]).subarray(-32)
    if (this.extension) {
      try {
        this.measure(chunk)
      } catch (error) {
        return done(error as Error)
      }
      return done(null, chunk)
    }
    this.sample.push(chunk)
    this.sampled += chunk.length
    if (this.sampled < SAMPLE) return done()
    this.identify().then(() => done(), done)
  }

  override _flush(done: TransformCallback) {
    if (this.sampled === 0 && !this.extension) {
      const message = `${shown(this.filename)} is empty.`
      return done(invalid(message, [{ field: this.kind === 'image' ? 'images' : 'videos', message }]))
    }
    const identified = this.extension ? Promise.resolve() : this.identify()
    identified
      .then(() => {
        if (this.extension && !whole(this.extension, this.head, this.tail, this.bytes)) {
          const message = `${shown(this.filename)} is cut short: the ${this.kind} is incomplete.`
          throw invalid(message, [{ field: this.kind === 'image' ? 'images' : 'videos', message }])
        }
        if (this.size) checkSize(this.filename, this.size.end(), this.caps)
      })
      .then(() => done(), done)
  }

  private async identify() {
    const sample = Buffer.concat(this.sample)
    const type = await fileTypeFromBuffer(sample)
    const extension = type ? accepted[this.kind][type.mime] : undefined
    if (!type || !extension) {
      throw invalid(`${shown(this.filename)} is not ${describe[this.kind]}.`, [
        {
          field: this.kind === 'image' ? 'images' : 'videos',
          message: `${shown(this.filename)} is not ${describe[this.kind]}.`,
        },
      ])
    }
    this.extension = extension
    this.mime = type.mime
    this.head = sample.subarray(0, 12)
    this.sample = []
    if (this.kind === 'image') this.size = declaredSize(extension)
    this.measure(sample)
    this.push(sample)
  }
}

export type MediaLimits = ImageCaps & {
  imageMaxBytes: number
  videoMaxBytes: number
  requestMaxBytes: number
}

/** The files of one request, staged until committed or discarded. */
export type MediaBatch = {
  readonly files: StagedFile[]
  /** Streams one file to the staging folder, checking it on the way; throws on a refusal. */
  add(kind: MediaKind, filename: string, stream: NodeJS.ReadableStream): Promise<StagedFile>
  /** The public URLs the files will have once committed. */
  urls(kind: MediaKind): Array<{ url: string }>
  /** Keeps every staged file under its name (the database store: all in one transaction). */
  commit(): Promise<void>
  /** Removes staged files that were not committed (safe to call more than once). */
  discard(): Promise<void>
  /** Takes committed files back out when what referred to them was refused. */
  removeCommitted(): Promise<void>
}

/** Where committed media are kept, and how they are served at /uploads/<name>. */
export type MediaStore = {
  readonly kind: 'disk' | 'database'
  /** Removes what a crash mid-upload may have left in the staging folder; run at start. */
  sweep(): Promise<void>
  batch(): MediaBatch
  /** Registers GET (and HEAD) /uploads/<name> on the app. */
  serve(app: FastifyInstance): Promise<void>
}

/** What a store does with checked files once the request's event is committed. */
export type MediaShelf = {
  put(files: StagedFile[]): Promise<void>
  remove(files: StagedFile[]): Promise<void>
}

/** Uploads are staged here, in the data folder, whichever store keeps them afterwards. */
export const incomingDirOf = (uploadsDir: string) => join(uploadsDir, '.incoming')

export async function sweepIncoming(incomingDir: string) {
  await rm(incomingDir, { recursive: true, force: true })
  await mkdir(incomingDir, { recursive: true })
}

/** A batch that stages and checks files in incomingDir and hands them to the shelf on commit. */
export function stagedBatch(incomingDir: string, limits: MediaLimits, shelf: MediaShelf): MediaBatch {
  const staged: StagedFile[] = []
  const budget = { left: limits.requestMaxBytes }
  return {
    files: staged,
    async add(kind, filename, stream) {
      await mkdir(incomingDir, { recursive: true })
      const id = newId()
      const maxBytes = kind === 'image' ? limits.imageMaxBytes : limits.videoMaxBytes
      const inspector = new Inspector(kind, filename, maxBytes, budget, limits)
      const path = join(incomingDir, `${id}.part`)
      const file = createWriteStream(path)
      // A refusal can come while the file is still being opened: it is only gone once closed.
      const closed = once(file, 'close').catch(() => {})
      staged.push({ kind, staged: path, name: '', contentType: '', bytes: 0, closed })
      try {
        await pipeline(stream, inspector, file)
      } catch (error) {
        if (error instanceof DomainError) throw error
        // The multipart parser's own limits (file count, size) arrive as its errors.
        const status = (error as { statusCode?: number }).statusCode
        if (status === 413) throw tooLarge(`${shown(filename)} is larger than this request may carry.`)
        throw error
      }
      const done = staged[staged.length - 1] as StagedFile
      done.name = `${id}.${inspector.extension}`
      done.contentType = inspector.mime
      done.bytes = inspector.bytes
      return done
    },
    urls: (kind) => staged.filter((f) => f.kind === kind).map((f) => ({ url: `/uploads/${f.name}` })),
    commit: () => shelf.put(staged),
    async discard() {
      await Promise.all(
        staged.map(async (f) => {
          await f.closed
          await rm(f.staged, { force: true })
        }),
      )
    },
    removeCommitted: () => shelf.remove(staged.filter((f) => f.name)),
  }
}

/** MEDIA_STORE=disk: committed files are renamed into the uploads folder, one process's disk. */
export class DiskMediaStore implements MediaStore {
  readonly kind = 'disk'

  constructor(
    readonly uploadsDir: string,
    private readonly limits: MediaLimits,
  ) {}

  get incomingDir() {
    return incomingDirOf(this.uploadsDir)
  }

  sweep() {
    return sweepIncoming(this.incomingDir)
  }

  batch() {
    const { uploadsDir } = this
    return stagedBatch(this.incomingDir, this.limits, {
      async put(files) {
        await mkdir(uploadsDir, { recursive: true })
        for (const file of files) await rename(file.staged, join(uploadsDir, file.name))
      },
      async remove(files) {
        await Promise.all(files.map((f) => rm(join(uploadsDir, f.name), { force: true })))
      },
    })
  }

  /**
   * /uploads/*: readable from any origin (a client served elsewhere shows the images; helmet's
   * same-origin stays on everything else), cached for good (the names are random and never
   * reused), and ranges for video seeking (@fastify/static answers Range with 206).
   */
  async serve(app: FastifyInstance) {
    await mkdir(this.uploadsDir, { recursive: true })
    await app.register(fastifyStatic, {
      root: this.uploadsDir,
      prefix: '/uploads/',
      decorateReply: false,
      index: false,
      allowedPath: (path) => !path.split('/').some((segment) => segment.startsWith('.')),
      maxAge: '365d',
      immutable: true,
      acceptRanges: true,
      // helmet set same-origin on the raw response; the reply's own header wins when it is written
      setHeaders: (reply) => {
        reply.header('cross-origin-resource-policy', 'cross-origin')
      },
    })
  }
}
