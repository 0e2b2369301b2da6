// nginx (Debian's binary) in front of app processes, running deploy/nginx.conf as it is but for
// its `listen` and the process list (deploy/app-servers.conf), which are written with the test's
// own ports. A variant can drop lines of the file, to show what they are for.
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Proc, removeDir, root, spawnProgram, waitFor } from './faults.ts'
import { freePort } from './server.ts'

export const NGINX = process.env.NGINX_PATH || '/usr/sbin/nginx'
const INSTALL = 'apt-get install -y --no-install-recommends nginx'

/** Fails with the one command to run when there is no nginx to run (never a silent skip). */
export function ensureNginx(): string {
  const run = spawnSync(NGINX, ['-v'], { encoding: 'utf8' })
  if (run.status !== 0)
    throw new Error(
      `The load-balancer test runs nginx, and there is none at ${NGINX} (NGINX_PATH). Install Debian's:\n\n` +
        `    ${process.getuid?.() === 0 ? '' : 'sudo '}${INSTALL}\n`,
    )
  return run.stderr.trim()
}

export type Balancer = { url: string; port: number; proc: Proc; stop(): Promise<void> }

/**
 * deploy/nginx.conf in front of the given app ports, on a free port of 127.0.0.1, as a foreground
 * child with its pid, logs and temp files in a folder of its own. `without`: lines of the file
 * to drop (each must be there); `replace`: lines to write otherwise.
 */
export async function startBalancer(
  appPorts: number[],
  without: string[] = [],
  /** a line of the file and what it becomes (each must be there): a bench's variant */
  replace: Record<string, string> = {},
): Promise<Balancer> {
  ensureNginx()
  const port = await freePort()
  const dir = mkdtempSync(join(tmpdir(), 'nginx-'))
  let site = readFileSync(join(root, 'deploy/nginx.conf'), 'utf8')
  const listen = '    listen 80;\n'
  if (!site.includes(listen)) throw new Error('deploy/nginx.conf has no `listen 80;` line to render')
  site = site.replace(listen, `    listen 127.0.0.1:${port};\n`)
  for (const line of without) {
    const lines = site.split('\n')
    const kept = lines.filter((l) => l.trim() !== line)
    if (kept.length === lines.length) throw new Error(`deploy/nginx.conf has no line \`${line}\``)
    site = kept.join('\n')
  }
  for (const [line, by] of Object.entries(replace)) {
    if (!site.split('\n').some((l) => l.trim() === line))
      throw new Error(`deploy/nginx.conf has no line \`${line}\``)
    site = site
      .split('\n')
      .map((l) => (l.trim() === line ? l.replace(line, by) : l))
      .join('\n')
  }
  writeFileSync(join(dir, 'site.conf'), site)
  writeFileSync(
    join(dir, 'app-servers.conf'),
    appPorts.map((p) => `server 127.0.0.1:${p} max_fails=3 fail_timeout=10s;\n`).join(''),
  )
  // What the official image's own nginx.conf provides around conf.d/default.conf. One process,
  // no master: the API's turn-taking over the app processes is the same from request to request,
  // and a test run killed outright leaves no nginx worker behind holding the port.
  writeFileSync(
    join(dir, 'nginx.conf'),
    [
      'daemon off;',
      'master_process off;',
      'pid nginx.pid;',
      'error_log stderr warn;',
      'events { worker_connections 1024; }',
      'http {',
      '  access_log off;',
      '  client_body_temp_path temp/body;',
      '  proxy_temp_path temp/proxy;',
      '  fastcgi_temp_path temp/fastcgi;',
      '  uwsgi_temp_path temp/uwsgi;',
      '  scgi_temp_path temp/scgi;',
      '  include site.conf;',
      '}',
      '',
    ].join('\n'),
  )
  // nginx makes the last part of each temp path itself, not the folder above it.
  mkdirSync(join(dir, 'temp'))
  const proc = spawnProgram(NGINX, ['-p', `${dir}/`, '-c', join(dir, 'nginx.conf'), '-e', 'stderr'])
  const url = `http://127.0.0.1:${port}`
  let gone = false
  void proc.exited.then(() => {
    gone = true
  })
  await waitFor(
    async () => {
      if (gone) throw new Error(`nginx exited while starting:\n${proc.output()}`)
      try {
        return (await fetch(`${url}/api/v1/health/live`)).ok
      } catch {
        return false
      }
    },
    15_000,
    `nginx on ${url}`,
  ).catch(async (error) => {
    await proc.kill9()
    removeDir(dir)
    throw error
  })
  return {
    url,
    port,
    proc,
    async stop() {
      await proc.stop()
      removeDir(dir)
    },
  }
}
