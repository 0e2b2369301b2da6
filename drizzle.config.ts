import { defineConfig } from 'drizzle-kit'

export default defineConfig({
  dialect: 'sqlite',
  schema: ['./server/db/schema.ts', './server/db/sqlite-read-models.ts', './server/*/tables.ts'],
  out: './migrations',
  casing: 'snake_case',
})
