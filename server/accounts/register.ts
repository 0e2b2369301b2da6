// The Register command, shared by sign-up, organizer creation and the admin seed: the e-mail
// lookup and the append happen in one transaction under the e-mail's lock, so two sign-ups cannot
// take one e-mail, in any process.
import type { Role } from '../../contracts/accounts.ts'
import { decisionLocks, type LedgerPort, wait } from '../db/store.ts'
import { newId, streams } from '../ids.ts'
import { decideIn } from '../ledger/decider.ts'
import type { FactMeta } from '../ledger/ledger.ts'
import { accountDecider } from './decide.ts'
import { hashPassword } from './passwords.ts'

/** the ledger a sign-up decides on: it reads whether the e-mail is taken in its own transaction */
export type AccountsLedger = Pick<
  LedgerPort<{ accounts: { emailTaken(email: string): boolean | Promise<boolean> } }>,
  'transaction'
>

export type NewAccount = {
  username: string
  email: string
  password: string
  role: Role
  phone?: string | null
  createdBy?: string | null
}

export async function registerAccount(
  ledger: AccountsLedger,
  input: NewAccount,
  meta: FactMeta = {},
): Promise<string> {
  const passwordHash = await hashPassword(input.password)
  const accountId = newId()
  await ledger.transaction(
    function* (tx) {
      const emailTaken = yield* wait(tx.reads.accounts.emailTaken(input.email))
      return yield* decideIn(tx, accountDecider, {
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
          emailTaken,
        },
        meta: { actor: input.createdBy ?? accountId, ...meta },
      })
    },
    { lock: decisionLocks.email(input.email) },
  )
  return accountId
}
