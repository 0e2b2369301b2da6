// The web app: root web/, built into web/dist (the server serves it), API and socket proxied in dev.
import { resolve } from 'node:path'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

const server = process.env.API_ORIGIN ?? 'http://localhost:3000'

export default defineConfig(({ command }) => {
  // Test runs (NODE_ENV=test) build the bundle the server serves: it must be the production one,
  // not React's development build.
  if (command === 'build' && process.env.NODE_ENV === 'test') process.env.NODE_ENV = 'production'
  return {
    root: import.meta.dirname,
    plugins: [react()],
    build: {
      outDir: resolve(import.meta.dirname, 'dist'),
      emptyOutDir: true,
    },
    server: {
      proxy: {
        '/api': { target: server, changeOrigin: true, ws: true },
        '/socket.io': { target: server, ws: true, changeOrigin: true },
      },
    },
  }
})
