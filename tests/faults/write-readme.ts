// npx tsx tests/faults/write-readme.ts: rewrites the README's reliability section from results.json.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { writeReliabilitySection } from './readme.ts'

const root = join(import.meta.dirname, '../..')
writeReliabilitySection(
  join(root, 'README.md'),
  JSON.parse(readFileSync(join(root, 'tests/faults/results.json'), 'utf8')),
)
spawnSync(join(root, 'node_modules/.bin/biome'), ['format', '--write', join(root, 'README.md')], {
  stdio: 'ignore',
})
