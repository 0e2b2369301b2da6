// npm run admin:create -- --email a@b.c --password secret [--username name]
// (or with ADMIN_EMAIL and ADMIN_PASSWORD set). Creates the admin once; never overwrites.
import { parseArgs } from 'node:util'
import { ensureAdmin } from '../accounts/seed-admin.ts'
import { ConfigError, loadConfig } from '../config.ts'
import { loadSettings } from '../env-file.ts'
import { openStore } from '../stores.ts'

const { values } = parseArgs({
  options: { email: { type: 'string' }, password: { type: 'string' }, username: { type: 'string' } },
})

try {
  const config = loadSettings(() =>
    loadConfig({
      ...process.env,
      ...(values.email ? { ADMIN_EMAIL: values.email } : {}),
      ...(values.password ? { ADMIN_PASSWORD: values.password } : {}),
      ...(values.username ? { ADMIN_USERNAME: values.username } : {}),
    }),
  )
  if (!config.admin) {
    console.error('Give --email and --password (or set ADMIN_EMAIL and ADMIN_PASSWORD).')
    process.exit(2)
  }
  const store = await openStore(config)
  const result = await ensureAdmin(store.ledger, store.queries.accounts, config.admin).finally(() =>
    store.close(),
  )
  console.log(
    result.created
      ? `Admin ${config.admin.email} created.`
      : `An account with ${config.admin.email} already exists (role ${result.role}); left unchanged.`,
  )
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error)
  process.exit(1)
}
