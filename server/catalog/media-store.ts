// The media store MEDIA_STORE chooses: the uploads folder (disk) or PostgreSQL (database), the one
// every process of a cluster reads. The catalogue's routes take files in through it, and the app
// serves /uploads/<name> from it.
import type { FastifyInstance } from 'fastify'
import type pg from 'pg'
import type { Config } from '../config.ts'
import { DiskMediaStore, type MediaStore } from './media.ts'
import { PgMediaStore } from './pg-media.ts'

/** pool: the app's PostgreSQL pool (openPostgres), required when config.mediaStore is database. */
export function createMediaStore(
  config: Pick<Config, 'mediaStore' | 'uploadsDir' | 'uploads'>,
  pool: pg.Pool | null,
): MediaStore {
  switch (config.mediaStore) {
    case 'disk':
      return new DiskMediaStore(config.uploadsDir, config.uploads)
    case 'database':
      if (!pool) {
        throw new Error(
          'MEDIA_STORE is database, but this process was given no PostgreSQL pool to keep media in ' +
            '(DATABASE_URL opens it); set MEDIA_STORE=disk to keep media in DATA_DIR/uploads.',
        )
      }
      return new PgMediaStore(config.uploadsDir, config.uploads, pool)
    default: {
      const unknown: never = config.mediaStore
      throw new Error(`unknown media store ${unknown}`)
    }
  }
}

/** Serves committed media at /uploads/<name>, with range requests so a video can seek. */
export const serveMedia = (app: FastifyInstance, store: MediaStore) => store.serve(app)
