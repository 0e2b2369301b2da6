// The load-balancer test runs Debian's nginx (tests/support/balancer.ts: NGINX_PATH, default
// /usr/sbin/nginx). Run before the tests (npm test runs it first), it makes sure there is one: it
// installs Debian's package when it may (root, apt-get, no NGINX_PATH of one's own, NGINX_INSTALL
// not off), as .ci/run does, or stops at once with the one command to run.
//   node --import tsx tests/support/ensure-nginx.ts
import { spawnSync } from 'node:child_process'

const path = process.env.NGINX_PATH || '/usr/sbin/nginx'
const INSTALL = ['apt-get', 'install', '-y', '--no-install-recommends', 'nginx']
const runs = () => spawnSync(path, ['-v'], { stdio: 'ignore' }).status === 0

if (!runs()) {
  const root = process.getuid?.() === 0
  const mayInstall =
    root &&
    !process.env.NGINX_PATH &&
    process.env.NGINX_INSTALL !== 'off' &&
    spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0
  if (mayInstall) {
    console.error(`nginx is missing at ${path}: installing Debian's package (${INSTALL.join(' ')})`)
    const options = { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, stdio: 'inherit' as const }
    const [program, ...args] = INSTALL as [string, ...string[]]
    if (spawnSync(program, args, options).status !== 0) {
      // A fresh machine may have no package lists yet.
      spawnSync('apt-get', ['update'], options)
      spawnSync(program, args, options)
    }
  }
  if (!runs()) {
    console.error(
      `The load-balancer test needs nginx at ${path} (NGINX_PATH). Install Debian's:\n\n    ` +
        `${root ? '' : 'sudo '}${INSTALL.join(' ')}\n`,
    )
    process.exit(1)
  }
}
