// Profile (SPEC §2): the signed-in account, fetched fresh, and the way out.
import { useNavigate } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import type { Profile } from '../../../../contracts/accounts.ts'
import { fetchProfile } from '../../api/accounts.ts'
import { useSessionStore } from '../../session/use-session.ts'
import { Loading } from '../../ui/loading.tsx'
import { notify } from '../../ui/toasts.ts'

type Load =
  | { state: 'loading' }
  | { state: 'loaded'; profile: Profile | null }
  | { state: 'failed'; error: string }

const roleLabel = (role: string | undefined) => (role ? role.charAt(0).toUpperCase() + role.slice(1) : 'User')

export function ProfileScreen() {
  const session = useSessionStore()
  const navigate = useNavigate()
  const [load, setLoad] = useState<Load>({ state: 'loading' })

  useEffect(() => {
    let current = true
    fetchProfile()
      .then((profile) => {
        if (!current) return
        session.saveUser(profile)
        setLoad({ state: 'loaded', profile })
      })
      .catch((error: unknown) => {
        if (current)
          setLoad({
            state: 'failed',
            error: error instanceof Error ? error.message : 'Failed to fetch profile.',
          })
      })
    return () => {
      current = false
    }
  }, [session])

  const logOut = () => {
    session.signOut()
    notify.success('Logged out successfully !')
    void navigate({ to: '/login' })
  }

  if (load.state === 'loading') return <Loading />
  if (load.state === 'failed') {
    return (
      <section className="page">
        <p className="error-text" role="alert">
          {load.error}
        </p>
      </section>
    )
  }
  const { profile } = load
  if (!profile) {
    return (
      <section className="page">
        <p className="empty-text">Profile not found</p>
      </section>
    )
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
