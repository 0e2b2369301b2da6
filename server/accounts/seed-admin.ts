// The first admin, from ADMIN_EMAIL/ADMIN_PASSWORD: created once, never overwritten.
import type { Ledger } from '../ledger/ledger.ts'
import { accountQueries } from './queries.ts'
import { registerAccount } from './register.ts'

export type AdminSeed = { email: string; password: string; username: string }

export async function ensureAdmin(
  ledger: Ledger,
  admin: AdminSeed,
): Promise<{ created: boolean; accountId: string; role: string }> {
  const existing = accountQueries(ledger.db).byEmail(admin.email)
  if (existing) return { created: false, accountId: existing.id, role: existing.role }
  const accountId = await registerAccount(
    ledger,
    { ...admin, role: 'admin', createdBy: 'system' },
    { actor: 'system' },
  )
  return { created: true, accountId, role: 'admin' }
}
