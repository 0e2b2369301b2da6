// The browser tests drive Debian's Chromium (tests/support/browser.ts: CHROMIUM_PATH, default
// /usr/bin/chromium). Run before them (npm test runs it first, and the e2e global setup again), it
// makes sure there is one: it installs Debian's package when it may (root, apt-get, Chromium
// expected where the package puts it, CHROMIUM_INSTALL not off), as .ci/run does, or stops at
// once with the one command to run. It never downloads a browser from anywhere else.
//   node --import tsx tests/e2e/ensure-chromium.ts
import { spawnSync } from 'node:child_process'
import { accessSync, constants, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { aptInstall, hasAptGet, installDebianPackage } from '../support/apt.ts'

export const DEBIAN_CHROMIUM = '/usr/bin/chromium'
const INSTALL = aptInstall('chromium')

export type ChromiumCheck =
  | { ok: true; path: string; version: string; installed: boolean }
  | { ok: false; path: string; message: string }

/** The version Chromium at `path` reports, or null when there is none there that runs. */
export function chromiumVersion(path: string): string | null {
  try {
    accessSync(path, constants.X_OK)
    if (!statSync(path).isFile()) return null
  } catch {
    return null
  }
  const run = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 30_000 })
  return run.status === 0 ? run.stdout.trim() || 'Chromium' : null
}

export function ensureChromium(
  env: NodeJS.ProcessEnv = process.env,
  debianPath = DEBIAN_CHROMIUM,
  log: (line: string) => void = (line) => console.error(line),
): ChromiumCheck {
  const custom = env.CHROMIUM_PATH !== undefined && env.CHROMIUM_PATH !== ''
  const path = custom ? (env.CHROMIUM_PATH as string) : debianPath
  const found = chromiumVersion(path)
  if (found) return { ok: true, path, version: found, installed: false }

  const root = process.getuid?.() === 0
  const apt = hasAptGet(env)
  const command = `${root ? '' : 'sudo '}${INSTALL.join(' ')}`
  if (custom) {
    return {
      ok: false,
      path,
      message:
        `The browser tests need Chromium, and CHROMIUM_PATH=${path} is not one that runs. ` +
        `Point CHROMIUM_PATH at a Chromium, or unset it and install Debian's:\n\n    ${command}\n`,
    }
  }
  if (!apt) {
    return {
      ok: false,
      path,
      message:
        `The browser tests need Chromium at ${path}, and this machine has none (nor apt-get to install ` +
        `Debian's). Install Chromium and set CHROMIUM_PATH to it.\n`,
    }
  }
  const mayInstall = root && env.CHROMIUM_INSTALL !== 'off'
  if (mayInstall) {
    log(`Chromium is missing at ${path}: installing Debian's package (${INSTALL.join(' ')})`)
    installDebianPackage('chromium', env)
    const installed = chromiumVersion(path)
    if (installed) return { ok: true, path, version: installed, installed: true }
  }
  return {
    ok: false,
    path,
    message:
      `The browser tests need Chromium at ${path}, and there is none${mayInstall ? ' (installing it failed)' : ''}. ` +
      `Install Debian's with:\n\n    ${command}\n`,
  }
}

const invokedDirectly =
  process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)
if (invokedDirectly) {
  const check = ensureChromium()
  if (check.ok) {
    if (check.installed) console.error(`Chromium installed: ${check.version} (${check.path})`)
  } else {
    console.error(check.message)
    process.exit(1)
  }
}
