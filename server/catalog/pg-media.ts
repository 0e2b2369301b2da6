// MEDIA_STORE=database: checked uploads are kept in PostgreSQL's media table (pg-media-tables.ts)
// and served from it, so every app process, on any machine, serves what any one of them took in.
// Files are still checked while streamed to this process's staging folder (media.ts); only a
// committed event's files reach the table, all in one transaction.
import { readFile, rm } from 'node:fs/promises'
import { Readable } from 'node:stream'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type pg from 'pg'
import { byteRangeOf, rangeStillFresh } from '../http/byte-range.ts'
import {
  incomingDirOf,
  type MediaLimits,
  type MediaStore,
  type StagedFile,
  stagedBatch,
  sweepIncoming,
} from './media.ts'

/** Bytes read per query while a large file is sent (a video), so none is held whole in memory. */
const CHUNK = 1024 * 1024

/** The names the server makes (an id and an extension): never a dot file, never a path. */
const MEDIA_NAME = /^[\w-]+\.[a-z0-9]+$/i

type StoredMedia = { contentType: string; size: number; createdAt: Date; bytes: Buffer | null }

export class PgMediaStore implements MediaStore {
  readonly kind = 'database'

  constructor(
    private readonly uploadsDir: string,
    private readonly limits: MediaLimits,
    private readonly pool: pg.Pool,
  ) {}

  get incomingDir() {
    return incomingDirOf(this.uploadsDir)
  }

  sweep() {
    return sweepIncoming(this.incomingDir)
  }

  batch() {
    return stagedBatch(this.incomingDir, this.limits, {
      put: (files) => this.put(files),
      remove: (files) => this.remove(files),
    })
  }

  /** Every file of the batch in one transaction: an event never points at some of its media. */
  private async put(files: StagedFile[]) {
    if (files.length === 0) return
    const client = await this.pool.connect()
    let broken: Error | undefined
    try {
      await client.query('BEGIN')
      for (const file of files) {
        // One file in memory at a time (at most UPLOAD_VIDEO_MAX_MB); pg sends a Buffer as binary.
        const bytes = await readFile(file.staged)
        await client.query(
          'INSERT INTO media (name, kind, content_type, bytes, size) VALUES ($1, $2, $3, $4, $5)',
          [file.name, file.kind, file.contentType, bytes, bytes.length],
        )
      }
      await client.query('COMMIT')
    } catch (error) {
      await client.query('ROLLBACK').catch((rollback: Error) => {
        broken = rollback
      })
      throw error
    } finally {
      // a connection that could not even roll back is not given to the next request
      client.release(broken)
    }
    // kept: out of the staging folder, as the disk store's rename takes them out
    await Promise.all(files.map((file) => rm(file.staged, { force: true })))
  }

  private async remove(files: StagedFile[]) {
    if (files.length === 0) return
    await this.pool.query('DELETE FROM media WHERE name = ANY($1::text[])', [files.map((f) => f.name)])
  }

  /** One row's description, and its bytes too when it is small enough to send in one piece. */
  private async find(name: string, withBytes: boolean): Promise<StoredMedia | undefined> {
    const { rows } = await this.pool.query<StoredMedia>(
      `SELECT content_type AS "contentType", size, created_at AS "createdAt",
        CASE WHEN $2::boolean AND size <= $3 THEN bytes END AS bytes
      FROM media WHERE name = $1`,
      [name, withBytes, CHUNK],
    )
    const row = rows[0]
    return row && { ...row, size: Number(row.size) }
  }

  /** The bytes from start to end (inclusive), read a chunk per query. */
  private async *slices(name: string, start: number, end: number) {
    for (let at = start; at <= end; at += CHUNK) {
      const length = Math.min(CHUNK, end - at + 1)
      const { rows } = await this.pool.query<{ part: Buffer }>(
        'SELECT substring(bytes FROM $2 FOR $3) AS part FROM media WHERE name = $1',
        [name, at + 1, length],
      )
      const part = rows[0]?.part
      if (!part || part.length !== length) throw new Error(`media ${name} changed while it was sent`)
      yield part
    }
  }

  /**
   * GET and HEAD /uploads/<name> with @fastify/static's headers for files on disk: readable from
   * any origin, cached for good (names are random and never reused), and a single byte range
   * answered with 206 so a video can seek (416 past the end).
   */
  async serve(app: FastifyInstance) {
    app.route<{ Params: { name: string } }>({
      method: ['GET', 'HEAD'],
      url: '/uploads/:name',
      handler: (request, reply) => this.answer(request, reply),
    })
  }

  private async answer(request: FastifyRequest<{ Params: { name: string } }>, reply: FastifyReply) {
    const { name } = request.params
    if (!MEDIA_NAME.test(name)) return reply.callNotFound()
    const head = request.method === 'HEAD'
    const stored = await this.find(name, !head && request.headers.range === undefined)
    if (!stored) return reply.callNotFound()

    const etag = `"${name}"`
    const lastModified = stored.createdAt
    reply
      .header('cross-origin-resource-policy', 'cross-origin')
      .header('accept-ranges', 'bytes')
      .header('etag', etag)
      .header('last-modified', lastModified.toUTCString())
    const ifNoneMatch = request.headers['if-none-match']
    if (ifNoneMatch !== undefined && (ifNoneMatch.trim() === '*' || ifNoneMatch.includes(etag))) {
      return reply.header('cache-control', 'public, max-age=31536000, immutable').code(304).send()
    }

    const range = rangeStillFresh(request.headers['if-range'] as string | undefined, { etag, lastModified })
      ? byteRangeOf(request.headers.range, stored.size)
      : null
    if (range === 'unsatisfiable') {
      return reply
        .code(416)
        .header('content-range', `bytes */${stored.size}`)
        .send({ message: `The range asked for is not within the file's ${stored.size} bytes.` })
    }
    const { start, end } = range ?? { start: 0, end: stored.size - 1 }
    reply
      .type(stored.contentType)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('content-length', String(end - start + 1))
    if (range) reply.code(206).header('content-range', `bytes ${start}-${end}/${stored.size}`)
    if (head) return reply.send()
    if (stored.bytes) return reply.send(stored.bytes)
    return reply.send(Readable.from(this.slices(name, start, end)))
  }
}
