// The load-balancer test runs Debian's nginx (tests/support/balancer.ts: NGINX_PATH, default
// /usr/sbin/nginx). Run before the tests (npm test runs it first), it makes sure there is one: it
// installs Debian's package when it may (root, apt-get, no NGINX_PATH of one's own, NGINX_INSTALL
// not off), as .ci/run does, or stops at once with the one command to run.
//   node --import tsx tests/support/ensure-nginx.ts
import { spawnSync } from 'node:child_process'
import { aptInstall, hasAptGet, installDebianPackage } from './apt.ts'

const path = process.env.NGINX_PATH || '/usr/sbin/nginx'
const INSTALL = aptInstall('nginx')
const runs = () => spawnSync(path, ['-v'], { stdio: 'ignore' }).status === 0

if (!runs()) {
  const root = process.getuid?.() === 0
  const mayInstall = root && !process.env.NGINX_PATH && process.env.NGINX_INSTALL !== 'off' && hasAptGet()
  if (mayInstall) {
    console.error(`nginx is missing at ${path}: installing Debian's package (${INSTALL.join(' ')})`)
    installDebianPackage('nginx')
  }
  if (!runs()) {
    console.error(
      `The load-balancer test needs nginx at ${path} (NGINX_PATH). Install Debian's:\n\n    ` +
        `${root ? '' : 'sudo '}${INSTALL.join(' ')}\n`,
    )
    process.exit(1)
  }
}
