// The first admin, from ADMIN_EMAIL/ADMIN_PASSWORD: created once, never overwritten.
import type { AsyncQueries } from '../db/store.ts'
import { DomainError } from '../errors.ts'
import type { AccountQueries } from './queries.ts'
import { type AccountsLedger, registerAccount } from './register.ts'

export type AdminSeed = { email: string; password: string; username: string }

export async function ensureAdmin(
  ledger: AccountsLedger,
  accounts: Pick<AsyncQueries<AccountQueries>, 'byEmail'>,
  admin: AdminSeed,
): Promise<{ created: boolean; accountId: string; role: string }> {
  const existing = await accounts.byEmail(admin.email)
  if (existing) return { created: false, accountId: existing.id, role: existing.role }
  try {
    const accountId = await registerAccount(
      ledger,
      { ...admin, role: 'admin', createdBy: 'system' },
      { actor: 'system' },
    )
    return { created: true, accountId, role: 'admin' }
  } catch (error) {
    // Another process starting at the same moment (one database, several processes) made it first.
    const made = error instanceof DomainError ? await accounts.byEmail(admin.email) : undefined
    if (!made) throw error
    return { created: false, accountId: made.id, role: made.role }
  }
}
