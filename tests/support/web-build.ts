// The built web app (web/dist, which the server serves) for the tests that need it: the global
// setups build it once per run, and a test that needs it says so when it is not there, instead of
// skipping without a word.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'

const repository = resolve(import.meta.dirname, '../..')

/** Where the server looks for the web app (server/config.ts: webDist). */
export const webDist = join(repository, 'web/dist')

/**
 * Builds with the Vite config given (the web app's by default) as production does: vitest sets
 * NODE_ENV=test, and the tests must see the bundle the server ships, not React's development build.
 */
export function buildWeb(config = 'web/vite.config.ts'): void {
  try {
    // (quiet when it works: its chunk-size advice is for the web app's authors, not each test run)
    execFileSync('npx', ['vite', 'build', '--config', config, '--logLevel', 'warn'], {
      cwd: repository,
      stdio: 'pipe',
      encoding: 'utf8',
      env: { ...process.env, NODE_ENV: 'production' },
    })
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string }
    throw new Error(`Building the web app with ${config} failed:\n${stdout}${stderr}`, { cause: error })
  }
}

export const webBuilt = (dist = webDist) => existsSync(join(dist, 'index.html'))

/** Fails, saying how to get it, when the web app is not built in `dist`. */
export function requireWebBuild(dist = webDist): void {
  if (!webBuilt(dist)) {
    throw new Error(
      `The web app is not built (${join(dist, 'index.html')} is missing), so the server does not serve it. ` +
        'The global setups of the integration and browser tests build it (tests/support/web-build.ts); ' +
        'run `npm run build:web` to build it, or to see why that build fails.',
    )
  }
}
