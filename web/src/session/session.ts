// Session state {user, token}: the token lives in localStorage under `token`; on start the profile
// is fetched (only when a token exists) and guards wait for that before deciding.
import type { Profile } from '../../../contracts/accounts.ts'
import { TOKEN_KEY } from '../api/client.ts'

export type SessionState = { user: Profile | null; token: string | null }

export type TokenStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>

export type Session = {
  current(): SessionState
  /** the state once the stored token (if any) has been checked against the server */
  resolved(): Promise<SessionState>
  subscribe(listener: () => void): () => void
  start(): Promise<SessionState>
  storeToken(token: string): void
  saveUser(user: Profile): void
  signOut(): void
}

export function createSession(options: {
  storage: TokenStorage
  fetchProfile: (token: string) => Promise<Profile>
  /** does this failure mean the token is no good (401)? then it is forgotten */
  isRejection: (error: unknown) => boolean
}): Session {
  const { storage } = options
  let state: SessionState = { user: null, token: null }
  let resolving: Promise<SessionState> | null = null
  const listeners = new Set<() => void>()

  const set = (next: SessionState) => {
    state = next
    for (const listener of listeners) listener()
  }

  const forgetToken = () => {
    try {
      storage.removeItem(TOKEN_KEY)
    } catch {
      // storage may be unavailable (private mode); nothing to forget then
    }
  }

  const start = () => {
    let token: string | null = null
    try {
      token = storage.getItem(TOKEN_KEY)
    } catch {
      token = null
    }
    if (!token) {
      resolving = Promise.resolve(state)
      return resolving
    }
    set({ user: null, token })
    resolving = options.fetchProfile(token).then(
      (user) => {
        // A login or logout that happened meanwhile wins over this older answer.
        if (state.token === token) set({ user, token })
        return state
      },
      (error: unknown) => {
        if (state.token === token && options.isRejection(error)) {
          forgetToken()
          set({ user: null, token: null })
        }
        return state
      },
    )
    return resolving
  }

  return {
    current: () => state,
    resolved: () => (resolving ?? start()).then(() => state),
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    start,
    storeToken(token) {
      try {
        storage.setItem(TOKEN_KEY, token)
      } catch {
        // without storage the session lasts as long as the page
      }
      set({ user: null, token })
    },
    saveUser(user) {
      set({ ...state, user })
    },
    signOut() {
      forgetToken()
      set({ user: null, token: null })
    },
  }
}
