// User accounts (admin, SPEC §2): every account with its role; a new sign-up appears live, and
// the list is fetched again on every (re)connection so nothing pushed meanwhile is missed.
import { useCallback, useEffect, useState } from 'react'
import * as v from 'valibot'
import { AccountSummary } from '../../../../contracts/accounts.ts'
import type { AccountRegisteredPush } from '../../../../contracts/live.ts'
import { fetchAccounts } from '../../api/accounts.ts'
import { useLiveConnected, useLiveFacts } from '../../live/use-live.ts'
import { Loading } from '../../ui/loading.tsx'

type Load =
  | { state: 'loading' }
  | { state: 'loaded'; accounts: AccountSummary[] }
  | { state: 'failed'; error: string }

const withAccount = (accounts: AccountSummary[], account: AccountSummary) =>
  accounts.some((known) => known._id === account._id) ? accounts : [...accounts, account]

export function UserAccountsScreen() {
  const [load, setLoad] = useState<Load>({ state: 'loading' })
  const live = useLiveConnected()

  const refetch = useCallback(() => {
    fetchAccounts()
      .then((accounts) => setLoad({ state: 'loaded', accounts }))
      .catch((error: unknown) =>
        setLoad((previous) =>
          // a failed refetch keeps the table that is already on screen
          previous.state === 'loaded'
            ? previous
            : { state: 'failed', error: error instanceof Error ? error.message : 'Failed to fetch users.' },
        ),
      )
  }, [])

  useEffect(() => refetch(), [refetch])

  useLiveFacts({
    onConnect: refetch,
    onFact(push) {
      if (push.type !== 'AccountRegistered') return
      const data = push.data as AccountRegisteredPush
      const pushed = v.safeParse(AccountSummary, {
        _id: data.accountId,
        username: data.username,
        email: data.email,
        role: data.role,
      })
      if (!pushed.success) return
      const account = pushed.output
      setLoad((previous) =>
        previous.state === 'loaded'
          ? { state: 'loaded', accounts: withAccount(previous.accounts, account) }
          : previous,
      )
    },
  })

  if (load.state === 'loading') return <Loading message="Loading users..." />
  if (load.state === 'failed') {
    return (
      <section className="page">
        <h1>User Accounts</h1>
        <p className="error-text" role="alert">
          {load.error}
        </p>
      </section>
    )
  }
  return (
    <section className="page" data-live={live ? 'connected' : 'offline'}>
      <h1>User Accounts</h1>
      {load.accounts.length === 0 ? (
        <p className="empty-text">No users found</p>
      ) : (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
              </tr>
            </thead>
            <tbody>
              {load.accounts.map((account) => (
                <tr key={account._id}>
                  <td>{account.username}</td>
                  <td>{account.email}</td>
                  <td>{account.role}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}
