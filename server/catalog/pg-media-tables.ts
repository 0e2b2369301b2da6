// Event media on PostgreSQL (MEDIA_STORE=database, issue 15): every checked upload's bytes under
// its server-made name, so any app process on any machine serves what another one took in.
import { bigint, customType, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import type { MediaKind } from './media.ts'

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' })

export const pgMedia = pgTable('media', {
  /** the name in its URL, /uploads/<name>: a random id and the extension of its type */
  name: text().primaryKey(),
  kind: text().notNull().$type<MediaKind>(),
  /** read from the content's first bytes when it was uploaded */
  contentType: text().notNull(),
  bytes: bytea().notNull(),
  size: bigint({ mode: 'number' }).notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
})
