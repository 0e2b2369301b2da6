// The web app: root web/, built into web/dist (the server serves it), API and socket proxied in dev.
import { createHash } from 'node:crypto'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join, relative, resolve, sep } from 'node:path'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'

const server = process.env.API_ORIGIN ?? 'http://localhost:3000'

/** the line of web/public/sw.js that the build fills in */
const SHELL_PLACEHOLDER = "const SHELL = /* the build's list */ { version: 'dev', files: [] }"

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true })
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(folder, join(entry.parentPath, entry.name)).split(sep).join('/'))
}

/**
 * Writes the app shell into the built service worker (web/public/sw.js, issue 16): every file of
 * the build but the worker itself and source maps, and a version that changes with any of their
 * contents, so each deploy installs a new worker that caches its own files. Nothing is fetched.
 */
function appShell(): Plugin {
  let outDir = ''
  return {
    name: 'app-shell',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir)
    },
    writeBundle: {
      sequential: true,
      order: 'post',
      async handler() {
        const worker = join(outDir, 'sw.js')
        const source = await readFile(worker, 'utf8')
        if (!source.includes(SHELL_PLACEHOLDER)) throw new Error(`${worker} has no app shell line to fill in`)
        const files = (await filesUnder(outDir))
          .filter((file) => file !== 'sw.js' && !file.endsWith('.map'))
          .sort()
        const hash = createHash('sha256')
        for (const file of files) hash.update(file).update(await readFile(join(outDir, file)))
        const shell = { version: hash.digest('hex').slice(0, 16), files: files.map((file) => `/${file}`) }
        await writeFile(worker, source.replace(SHELL_PLACEHOLDER, `const SHELL = ${JSON.stringify(shell)}`))
      },
    },
  }
}

export default defineConfig(({ command }) => {
  // Test runs (NODE_ENV=test) build the bundle the server serves: it must be the production one,
  // not React's development build.
  if (command === 'build' && process.env.NODE_ENV === 'test') process.env.NODE_ENV = 'production'
  return {
    root: import.meta.dirname,
    plugins: [react(), appShell()],
    build: {
      outDir: resolve(import.meta.dirname, 'dist'),
      emptyOutDir: true,
      rolldownOptions: {
        output: {
          codeSplitting: {
            // The charts are ECharts (its core, two charts, five components) drawn by zrender: one
            // chunk of both was 550 kB. zrender in a file of its own halves the longest download and
            // parse of a chart screen (the two load side by side), and a new ECharts option or chart
            // leaves its cached copy valid. tests/e2e/bundle-size.test.ts holds every chunk to 500 kB.
            groups: [{ name: 'zrender', test: /node_modules[\\/]zrender[\\/]/ }],
          },
        },
      },
    },
    server: {
      proxy: {
        '/api': { target: server, changeOrigin: true, ws: true },
        '/socket.io': { target: server, ws: true, changeOrigin: true },
      },
    },
  }
})
