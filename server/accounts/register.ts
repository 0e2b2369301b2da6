// The Register command, shared by sign-up, organizer creation and the admin seed: the e-mail
// lookup and the append happen in one transaction, so two sign-ups cannot take one e-mail.
import type { Role } from '../../contracts/accounts.ts'
import { newId, streams } from '../ids.ts'
import { handleCommand } from '../ledger/decider.ts'
import type { FactMeta, Ledger } from '../ledger/ledger.ts'
import { accountDecider } from './decide.ts'
import { hashPassword } from './passwords.ts'
import { accountQueries } from './queries.ts'

export type NewAccount = {
  username: string
  email: string
  password: string
  role: Role
  phone?: string | null
  createdBy?: string | null
}

export async function registerAccount(
  ledger: Ledger,
  input: NewAccount,
  meta: FactMeta = {},
): Promise<string> {
  const passwordHash = await hashPassword(input.password)
  const accountId = newId()
  const accounts = accountQueries(ledger.db)
  ledger.transaction(() =>
    handleCommand(ledger, accountDecider, {
      stream: streams.account(accountId),
      command: {
        type: 'Register',
        accountId,
        username: input.username,
        email: input.email.toLowerCase(),
        passwordHash,
        role: input.role,
        phone: input.phone ?? null,
        createdBy: input.createdBy ?? null,
        emailTaken: accounts.byEmail(input.email) !== undefined,
      },
      meta: { actor: input.createdBy ?? accountId, ...meta },
    }),
  )
  return accountId
}
