// Profile (SPEC §2): the signed-in account, fetched fresh, and the way out.
import { useQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { useEffect } from 'react'
import type { Profile } from '../../../../contracts/accounts.ts'
import { ApiError } from '../../api/client.ts'
import { profileQuery } from '../../api/queries.ts'
import { useSessionStore } from '../../session/use-session.ts'
import { Fetched, messageOr } from '../../ui/fetched.tsx'
import { notify } from '../../ui/toasts.ts'

const roleLabel = (role: string | undefined) => (role ? role.charAt(0).toUpperCase() + role.slice(1) : 'User')

export function ProfileScreen() {
  const session = useSessionStore()
  const profile = useQuery(profileQuery())
  useEffect(() => {
    if (profile.data) session.saveUser(profile.data)
  }, [session, profile.data])

  // no such profile (the server answers 404): the empty text of SPEC §2, not an error
  if (profile.data === undefined && profile.error instanceof ApiError && profile.error.status === 404) {
    return (
      <section className="page">
        <p className="empty-text">Profile not found</p>
      </section>
    )
  }
  return (
    <Fetched query={profile} failed={messageOr('Failed to fetch profile.')}>
      {(shown) => <ProfileCard profile={shown} />}
    </Fetched>
  )
}

function ProfileCard({ profile }: { profile: Profile }) {
  const session = useSessionStore()
  const navigate = useNavigate()

  const logOut = () => {
    session.signOut()
    notify.success('Logged out successfully !')
    void navigate({ to: '/login' })
  }

  return (
    <section className="page form-page">
      <div className="card profile">
        <h1>Profile</h1>
        <dl>
          <dt>Name</dt>
          <dd>{profile.username}</dd>
          <dt>Email</dt>
          <dd>{profile.email}</dd>
          <dt>Role</dt>
          <dd>{roleLabel(profile.role)}</dd>
        </dl>
        <button type="button" onClick={logOut}>
          Log Out
        </button>
      </div>
    </section>
  )
}
