// The web app: root web/, built into web/dist (the server serves it), API and socket proxied in dev.
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
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

/** replaces the line `placeholder` of a built public file with `line`; the build fails without it */
async function fillLine(file: string, placeholder: string, line: string): Promise<void> {
  const source = await readFile(file, 'utf8')
  if (!source.includes(placeholder))
    throw new Error(`${file} has no line for the build to fill in: ${placeholder}`)
  await writeFile(file, source.replace(placeholder, line))
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
        const files = (await filesUnder(outDir))
          .filter((file) => file !== 'sw.js' && !file.endsWith('.map'))
          .sort()
        const hash = createHash('sha256')
        for (const file of files) hash.update(file).update(await readFile(join(outDir, file)))
        const shell = { version: hash.digest('hex').slice(0, 16), files: files.map((file) => `/${file}`) }
        await fillLine(join(outDir, 'sw.js'), SHELL_PLACEHOLDER, `const SHELL = ${JSON.stringify(shell)}`)
      },
    },
  }
}

/** the line of web/public/early.js that the build fills in */
const EARLY_PLACEHOLDER = "const PAGE_FILES = /* the build's list */ { scripts: [], styles: [] }"

/** what the event page runs on first (issue 40): its route's screen and the live connection's client */
const EVENT_PAGE_MODULES = [/web\/src\/routes\/pages\/event\.tsx$/, /node_modules\/socket\.io-client\//]

/**
 * Writes into the built web/public/early.js the files the event page loads once the app's own code
 * has run (its route's chunks, their stylesheets, the live connection's client), so that early.js
 * asks for them at once, beside the app's code, rather than after it. Without this a phone waited
 * for the app's code, then its evaluation, then a round trip for these: the seat map's page is the
 * one shared links open.
 */
function eventPageFiles(): Plugin {
  let outDir = ''
  return {
    name: 'event-page-files',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir)
    },
    // the bundle as written: chunks of stylesheets alone are gone by then, their sheets with their importers
    writeBundle: {
      sequential: true,
      order: 'post',
      async handler(_options, bundle) {
        const chunks = new Map<string, { imports: string[]; css: Set<string> }>()
        const roots: string[] = []
        const entries: string[] = []
        for (const [file, output] of Object.entries(bundle)) {
          if (output.type !== 'chunk') continue
          const css = (output as { viteMetadata?: { importedCss?: Set<string> } }).viteMetadata?.importedCss
          chunks.set(file, { imports: output.imports, css: css ?? new Set() })
          if (output.isEntry) entries.push(file)
          else if (output.moduleIds.some((id) => EVENT_PAGE_MODULES.some((m) => m.test(id)))) roots.push(file)
        }
        if (roots.length < EVENT_PAGE_MODULES.length)
          throw new Error(`the event page's chunks were not found: ${roots}`)
        /** each file a chunk needs, itself included, once */
        const closure = (file: string, into: Set<string>) => {
          const chunk = chunks.get(file)
          if (!chunk || into.has(file)) return into
          into.add(file)
          for (const imported of chunk.imports) closure(imported, into)
          return into
        }
        // what index.html loads already is left out
        const loaded = new Set<string>()
        for (const entry of entries) closure(entry, loaded)
        const needed = new Set<string>()
        for (const root of roots) closure(root, needed)
        const scripts = new Set<string>()
        const styles = new Set<string>()
        for (const file of needed) {
          if (loaded.has(file)) continue
          scripts.add(`/${file}`)
          for (const style of chunks.get(file)?.css ?? []) styles.add(`/${style}`)
        }
        const files = { scripts: [...scripts].sort(), styles: [...styles].sort() }
        const missing = [...files.scripts, ...files.styles].filter((file) => !existsSync(join(outDir, file)))
        if (missing.length > 0) throw new Error(`early.js would ask for files the build has not: ${missing}`)
        await fillLine(
          join(outDir, 'early.js'),
          EARLY_PLACEHOLDER,
          `const PAGE_FILES = ${JSON.stringify(files)}`,
        )
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
    // the event page's files written into early.js before the app shell's list is made of the build
    plugins: [react(), eventPageFiles(), appShell()],
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
