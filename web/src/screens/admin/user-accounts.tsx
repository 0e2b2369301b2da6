// User accounts (admin, SPEC §2): every account with its role; a new sign-up appears live from its
// push, and the list is fetched again on every (re)connection so nothing pushed meanwhile is
// missed (live/follow.ts).
import { useQuery } from '@tanstack/react-query'
import { accountsQuery } from '../../api/queries.ts'
import { useLiveConnected } from '../../live/use-live.ts'
import { Fetched, messageOr } from '../../ui/fetched.tsx'
import { Loading } from '../../ui/loading.tsx'

export function UserAccountsScreen() {
  const accounts = useQuery(accountsQuery())
  const live = useLiveConnected()

  return (
    <Fetched
      query={accounts}
      loading={<Loading message="Loading users..." />}
      failed={messageOr('Failed to fetch users.')}
      frame={(content) => (
        <section className="page" data-live={live ? 'connected' : 'offline'}>
          <h1>User Accounts</h1>
          {content}
        </section>
      )}
    >
      {(list) =>
        list.length === 0 ? (
          <p className="empty-text">No users found</p>
        ) : (
          <div className="table-scroll">
            <table className="table-stack">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Email</th>
                  <th scope="col">Role</th>
                </tr>
              </thead>
              <tbody>
                {list.map((account) => (
                  <tr key={account._id}>
                    <td data-label="Name">{account.username}</td>
                    <td data-label="Email">{account.email}</td>
                    <td data-label="Role">{account.role}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      }
    </Fetched>
  )
}
