// React access to the session store: re-renders when user or token change.
import { createContext, useContext, useSyncExternalStore } from 'react'
import type { Session, SessionState } from './session.ts'

export const SessionContext = createContext<Session | null>(null)

export function useSessionStore(): Session {
  const session = useContext(SessionContext)
  if (!session) throw new Error('useSession needs a SessionContext provider')
  return session
}

export function useSession(): SessionState {
  const session = useSessionStore()
  return useSyncExternalStore(session.subscribe, session.current, session.current)
}
