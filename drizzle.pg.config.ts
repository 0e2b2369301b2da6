// PostgreSQL's migrations (DATABASE_URL=postgres://…), generated from its own tables:
// `npx drizzle-kit generate --config drizzle.pg.config.ts`. SQLite's are drizzle.config.ts's. Tables
// are collected from server/*/pg-tables.ts and the like (catalog/pg-media-tables.ts).
import { defineConfig } from 'drizzle-kit'

export default defineConfig({
  dialect: 'postgresql',
  schema: ['./server/db/pg-schema.ts', './server/db/pg-read-models.ts', './server/*/pg-*tables.ts'],
  out: './migrations-pg',
  casing: 'snake_case',
})
