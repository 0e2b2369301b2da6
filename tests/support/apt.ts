// Installing one of Debian's packages for the tests that need a program (Chromium, nginx), as
// .ci/run does: non-interactive, and once more after `apt-get update` on a machine that has no
// package lists yet.
import { spawnSync } from 'node:child_process'

export const aptInstall = (pkg: string) => ['apt-get', 'install', '-y', '--no-install-recommends', pkg]

export const hasAptGet = (env: NodeJS.ProcessEnv = process.env) =>
  spawnSync('apt-get', ['--version'], { env, stdio: 'ignore' }).status === 0

/** Runs the install of `pkg`, its output shown; whether it worked is for the caller to check. */
export function installDebianPackage(pkg: string, env: NodeJS.ProcessEnv = process.env): void {
  const options = { env: { ...env, DEBIAN_FRONTEND: 'noninteractive' }, stdio: 'inherit' as const }
  const [program, ...args] = aptInstall(pkg) as [string, ...string[]]
  if (spawnSync(program, args, options).status === 0) return
  spawnSync('apt-get', ['update'], options)
  spawnSync(program, args, options)
}
