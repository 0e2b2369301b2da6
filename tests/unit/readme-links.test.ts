// Every relative link in the README, in docs/ (but the four copies of shared/) and in the hand-kept
// results history names a file or folder of this repository, so that the links work in a clone of it.
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const repo = resolve(import.meta.dirname, '../..')

/** The targets of the Markdown links `[text](target)` in a file, without outside addresses. */
function relativeLinks(file: string): string[] {
  const text = readFileSync(join(repo, file), 'utf8')
  return [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((match) => match[1] ?? '')
    .filter((target) => !/^([a-z][a-z0-9+.-]*:|#)/i.test(target))
}

describe.each([
  'README.md',
  'docs/README.md',
  'docs/operations.md',
  'docs/security.md',
  'docs/performance.md',
  'docs/design-choices.md',
  'tests/bench/results/HISTORY.md',
])('the links in %s', (file) => {
  const links = relativeLinks(file)

  it('are there', () => {
    expect(links.length).toBeGreaterThan(0)
  })

  it.each(links)('%s is a file of this repository', (target) => {
    const path = resolve(repo, dirname(file), decodeURIComponent(target.split('#')[0] ?? ''))
    expect(relative(repo, path).startsWith('..'), `${target} points outside the repository`).toBe(false)
    expect(existsSync(path), `${target} does not exist`).toBe(true)
  })
})
