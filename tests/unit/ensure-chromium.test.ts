// tests/e2e/ensure-chromium.ts: what npm test does before the browser tests when Chromium is missing.
// The installing branch runs against a stand-in apt-get (a shell script first on PATH) that
// installs a stand-in Chromium where the test says Debian's goes: this machine's Chromium is
// never touched.
import { spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ensureChromium } from '../e2e/ensure-chromium.ts'

const repo = resolve(import.meta.dirname, '../..')
const ONE_COMMAND = 'apt-get install -y --no-install-recommends chromium'
const root = process.getuid?.() === 0

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A folder with a stand-in apt-get that logs its arguments; `install` installs `chromium`. */
function fakeApt(options: { needsUpdate?: boolean } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'ensure-chromium-'))
  dirs.push(dir)
  const chromium = join(dir, 'chromium')
  const calls = join(dir, 'calls')
  writeFileSync(
    join(dir, 'apt-get'),
    `#!/bin/sh
[ "$1" = --version ] && { echo 'apt 2.6.1'; exit 0; }
echo "$* DEBIAN_FRONTEND=$DEBIAN_FRONTEND" >> '${calls}'
[ "$1" = update ] && { touch '${dir}/lists'; exit 0; }
${options.needsUpdate ? `[ -e '${dir}/lists' ] || { echo 'E: Unable to locate package chromium' >&2; exit 100; }` : ''}
[ "$*" = 'install -y --no-install-recommends chromium' ] || exit 100
printf '#!/bin/sh\\necho "Chromium 999.0.0.0 built on Debian"\\n' > '${chromium}'
chmod +x '${chromium}'
`,
  )
  chmodSync(join(dir, 'apt-get'), 0o755)
  const env = { ...process.env, PATH: `${dir}:${process.env.PATH}`, CHROMIUM_PATH: '' }
  const called = () => (existsSync(calls) ? readFileSync(calls, 'utf8').trim().split('\n') : [])
  return { dir, chromium, env, called }
}

describe('ensure-chromium', () => {
  it('with CHROMIUM_PATH pointing nowhere and installing off: exits 1 at once, naming the one command', () => {
    const started = performance.now()
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'tests/e2e/ensure-chromium.ts'], {
      cwd: repo,
      env: { ...process.env, CHROMIUM_PATH: '/nonexistent/chromium', CHROMIUM_INSTALL: 'off' },
      encoding: 'utf8',
    })
    expect(run.status).toBe(1)
    expect(run.stderr).toContain('CHROMIUM_PATH=/nonexistent/chromium')
    expect(run.stderr).toContain(`\n    ${root ? '' : 'sudo '}${ONE_COMMAND}\n`)
    // "At once": it neither waits on apt-get nor on a lock. The bound is loose because the
    // child starts node and tsx, which under the whole suite's load on two cores takes seconds.
    expect(performance.now() - started).toBeLessThan(30_000)
  }, 60_000)

  it('never installs for a CHROMIUM_PATH of your own: it says what to do', () => {
    const apt = fakeApt()
    const check = ensureChromium({ ...apt.env, CHROMIUM_PATH: join(apt.dir, 'mine') }, apt.chromium)
    expect(check.ok).toBe(false)
    expect(apt.called()).toEqual([])
  })

  it('with Chromium there: nothing to do (this machine has it)', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'tests/e2e/ensure-chromium.ts'], {
      cwd: repo,
      encoding: 'utf8',
    })
    expect(run.status, run.stderr).toBe(0)
    expect(run.stderr).toBe('')
  }, 60_000)

  it.runIf(root)('as root with apt-get: installs Debian’s package, without recommends, and goes on', () => {
    const apt = fakeApt()
    const lines: string[] = []
    const check = ensureChromium(apt.env, apt.chromium, (line) => lines.push(line))
    expect(check).toEqual({
      ok: true,
      path: apt.chromium,
      version: 'Chromium 999.0.0.0 built on Debian',
      installed: true,
    })
    expect(apt.called()).toEqual([
      'install -y --no-install-recommends chromium DEBIAN_FRONTEND=noninteractive',
    ])
    expect(lines.join('\n')).toContain(ONE_COMMAND)
  })

  it.runIf(root)('on a machine without package lists: apt-get update, then installs', () => {
    const apt = fakeApt({ needsUpdate: true })
    const check = ensureChromium(apt.env, apt.chromium, () => {})
    expect(check.ok).toBe(true)
    expect(apt.called().map((line) => line.split(' DEBIAN')[0])).toEqual([
      'install -y --no-install-recommends chromium',
      'update',
      'install -y --no-install-recommends chromium',
    ])
  })

  it('with CHROMIUM_INSTALL=off: installs nothing and names the one command', () => {
    const apt = fakeApt()
    const check = ensureChromium({ ...apt.env, CHROMIUM_INSTALL: 'off' }, apt.chromium)
    expect(check).toMatchObject({ ok: false })
    expect(check.ok ? '' : check.message).toContain(`\n    ${root ? '' : 'sudo '}${ONE_COMMAND}\n`)
    expect(apt.called()).toEqual([])
    expect(existsSync(apt.chromium)).toBe(false)
  })
})
