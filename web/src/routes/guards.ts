// Route guards (SPEC §6, with role checks that really restrict). Each waits for the session to be
// resolved (the stored token checked) and then lets the visit through or redirects.
import { redirect } from '@tanstack/react-router'
import type { Role } from '../../../contracts/accounts.ts'
import type { RouterContext } from './root.tsx'

type GuardArgs = { context: RouterContext }

const sessionOf = async ({ context }: GuardArgs) => {
  await context.session.resolved()
  return context.session.current()
}

/** only these roles; everyone else (visitors included) goes to the landing page */
export const onlyFor =
  (...roles: Role[]) =>
  async (args: GuardArgs): Promise<void> => {
    const { user } = await sessionOf(args)
    if (!user || !roles.includes(user.role)) throw redirect({ to: '/' })
  }

/** any signed-in account; visitors are sent to log in */
export const signedIn = async (args: GuardArgs): Promise<void> => {
  const { user } = await sessionOf(args)
  if (!user) throw redirect({ to: '/login' })
}

/** visitors only (login, sign up); a signed-in account goes to the landing page */
export const signedOut = async (args: GuardArgs): Promise<void> => {
  const { user } = await sessionOf(args)
  if (user) throw redirect({ to: '/' })
}
