// The holders' names of many passes at once (a manifest of 50,000 passes names thousands of people):
// the accounts area's byIds, a slice at a time so no statement grows past a few hundred parameters.
import type { AccountQueries } from '../accounts/queries.ts'

const SLICE = 500

/** each account's username, by id (accounts that do not exist are left out) */
export async function holdersOf(
  accounts: Pick<AccountQueries, 'byIds'>,
  ids: Iterable<string>,
): Promise<Map<string, string>> {
  const unique = [...new Set(ids)]
  const names = new Map<string, string>()
  for (let from = 0; from < unique.length; from += SLICE) {
    for (const account of await accounts.byIds(unique.slice(from, from + SLICE))) {
      names.set(account.id, account.username)
    }
  }
  return names
}
