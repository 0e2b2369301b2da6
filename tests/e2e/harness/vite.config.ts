// The browser tests' harness: a page that mounts one screen part alone (the analytics charts), so a
// test can put it through orders of loads, hides and re-shows that a dashboard meets only by
// chance. Built into tests/e2e/harness/dist by the e2e global setup; never part of the web app.
import { resolve } from 'node:path'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

export default defineConfig({
  root: import.meta.dirname,
  base: './',
  plugins: [react()],
  logLevel: 'warn',
  build: {
    outDir: resolve(import.meta.dirname, 'dist'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
  },
})
