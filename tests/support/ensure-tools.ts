// The programs some tests run, from Debian's packages: nginx for the load-balancer test
// (tests/support/balancer.ts: NGINX_PATH, default /usr/sbin/nginx), and poppler's pdftoppm and
// pdftotext with tesseract for the invoice PDF's test (it renders a page to PNG and reads its text).
// Run before the tests (npm test runs it first), it makes sure each is there: it installs Debian's
// package when it may (root, apt-get, no path of one's own, <NAME>_INSTALL not off), as .ci/run
// does, or stops at once with the one command to run.
//   node --import tsx tests/support/ensure-tools.ts
import { spawnSync } from 'node:child_process'
import { aptInstall, hasAptGet, installDebianPackage } from './apt.ts'

type Tool = { name: string; path: string; versionArg: string; pkg: string; customPath: boolean; for: string }

const tools: Tool[] = [
  {
    name: 'nginx',
    path: process.env.NGINX_PATH || '/usr/sbin/nginx',
    versionArg: '-v',
    pkg: 'nginx',
    customPath: Boolean(process.env.NGINX_PATH),
    for: 'The load-balancer test',
  },
  {
    name: 'pdftoppm',
    path: 'pdftoppm',
    versionArg: '-v',
    pkg: 'poppler-utils',
    customPath: false,
    for: 'The invoice PDF test',
  },
  {
    name: 'tesseract',
    path: 'tesseract',
    versionArg: '--version',
    pkg: 'tesseract-ocr',
    customPath: false,
    for: 'The invoice PDF test',
  },
]

const runs = (tool: Tool) => spawnSync(tool.path, [tool.versionArg], { stdio: 'ignore' }).status === 0
const root = process.getuid?.() === 0

for (const tool of tools) {
  if (runs(tool)) continue
  const off = process.env[`${tool.name.toUpperCase()}_INSTALL`] === 'off'
  if (root && !tool.customPath && !off && hasAptGet()) {
    console.error(
      `${tool.name} is missing: installing Debian's ${tool.pkg} (${aptInstall(tool.pkg).join(' ')})`,
    )
    installDebianPackage(tool.pkg)
  }
  if (!runs(tool)) {
    console.error(
      `${tool.for} needs ${tool.name} at ${tool.path}. Install Debian's:\n\n    ` +
        `${root ? '' : 'sudo '}${aptInstall(tool.pkg).join(' ')}\n`,
    )
    process.exit(1)
  }
}
