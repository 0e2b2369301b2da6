// What the results were measured on.
import { execSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { cpus } from 'node:os'

export type Machine = { commit: string; cpu: string; cores: number; node: string; date: string }

export function machine(): Machine {
  const git = (args: string) => {
    try {
      return execSync(`git ${args}`, { encoding: 'utf8' }).trim()
    } catch {
      return ''
    }
  }
  const dirty = git('status --porcelain --untracked-files=no') ? '+changes' : ''
  let cpu = cpus()[0]?.model ?? 'unknown'
  try {
    cpu = /model name\s*:\s*(.*)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? cpu
  } catch {}
  return {
    commit: `${git('rev-parse --short HEAD') || 'unknown'}${dirty}`,
    cpu,
    cores: cpus().length,
    node: process.version,
    date: new Date().toISOString(),
  }
}
