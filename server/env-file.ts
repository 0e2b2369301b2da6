// The settings of a process entry (server, workers, admin:create, ledger:rebuild): the environment,
// plus a .env file in the working directory when there is one (.env.example says "copy to .env").
// The environment wins: a key the environment sets (to anything but an empty string, which
// loadConfig counts as unset) is never taken from the file. Both pass the same checks.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseEnv } from 'node:util'
import { ConfigError } from './config.ts'

/** Fills `env` from the file's settings that it lacks; returns the keys taken from the file. */
export function readEnvFile(path = resolve('.env'), env: NodeJS.ProcessEnv = process.env): string[] {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw new ConfigError([`${path}: cannot be read (${(error as Error).message})`])
  }
  const taken: string[] = []
  for (const [key, value] of Object.entries(parseEnv(text))) {
    if (env[key] !== undefined && env[key].trim() !== '') continue
    env[key] = value
    taken.push(key)
  }
  return taken
}

/**
 * Reads ./.env into process.env, then `load`s the settings; a refused setting that came from the
 * file says so.
 */
export function loadSettings<T>(load: () => T, path = resolve('.env')): T {
  const taken = readEnvFile(path)
  try {
    return load()
  } catch (error) {
    if (!(error instanceof ConfigError) || taken.length === 0) throw error
    throw new ConfigError(
      error.problems.map((problem) =>
        taken.some((key) => problem.startsWith(`${key}:`)) ? `${problem}, read from ${path}` : problem,
      ),
    )
  }
}
