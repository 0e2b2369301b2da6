// `npm test`, the fault and cluster runs and the benches leave the working tree as they found it:
// what a run measures goes to files git ignores, and the committed results change only when a run
// is asked to record them (--record).
import { execFileSync, spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { repoRoot, runFiles } from '../support/results-files.ts'

const git = (...args: string[]) => spawnSync('git', args, { cwd: repoRoot, encoding: 'utf8' })
const tracked = (path: string) => git('ls-files', '--error-unmatch', relative(repoRoot, path)).status === 0
const ignored = (path: string) =>
  git('check-ignore', '-q', '--no-index', relative(repoRoot, path)).status === 0

describe('the files a run writes', () => {
  it('is a git working tree (the check needs it)', () => {
    expect(
      execFileSync('git', ['rev-parse', '--is-inside-work-tree'], { cwd: repoRoot, encoding: 'utf8' }).trim(),
    ).toBe('true')
  })

  describe.each(Object.entries(runFiles()))('%s, by default', (_writer, files) => {
    it.each(Object.values(files).map((file) => relative(repoRoot, file)))(
      '%s is neither committed nor committable',
      (file) => {
        expect(tracked(file), `${file} is a tracked file`).toBe(false)
        expect(ignored(file), `${file} is not ignored by git`).toBe(true)
      },
    )
  })
})

/** every TypeScript and JavaScript file under tests/, but dependencies and builds */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory())
      return ['node_modules', 'dist', 'history', 'latest'].includes(entry.name) ? [] : sources(path)
    return /\.(ts|mts|cts|js|mjs|cjs)$/.test(entry.name) ? [path] : []
  })
}

describe('the sources that write files', () => {
  const writers = sources(join(repoRoot, 'tests')).filter((file) =>
    /\b(writeFileSync|appendFileSync|writeFile|appendFile|createWriteStream)\(/.test(
      readFileSync(file, 'utf8'),
    ),
  )

  it('are found', () => {
    expect(writers.length).toBeGreaterThan(0)
  })

  // a committed results file is named by tests/support/results-files.ts alone, behind --record
  it.each(writers.map((file) => relative(repoRoot, file)))('%s names no committed file to write', (file) => {
    const code = readFileSync(join(repoRoot, file), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '')
    expect(code).not.toMatch(/README\.md['"]/)
    expect(code).not.toMatch(/['"]tests\/bench\/results/)
    expect(code).not.toMatch(/['"]tests\/faults\/[a-z-]*results\.json/)
  })
})
