// The door's routes (issue 16): /checkin, an account's invitations to door staff, and
// /checkin/{eventId}, the door itself, for any account with a token. It opens with no
// network too: the stored token is enough here, where every other signed-in page also needs the
// profile the server returns; which accounts may scan an event is the server's to say (its
// manifest and scans answer 403 to the others, and the screen shows that).
import { createRoute, redirect } from '@tanstack/react-router'
import { lazyScreen } from '../ui/retry-import.ts'
import { rootRoute } from './root.tsx'

export const checkinRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/checkin/$eventId',
  beforeLoad: async ({ context, location }) => {
    const { token } = await context.session.resolved()
    if (!token) throw redirect({ to: '/login', search: { redirect: location.href } })
  },
  component: lazyScreen(() => import('../screens/checkin/checkin.tsx'), 'CheckinScreen'),
})

/** /checkin: the account's invitations to door staff (the invitation mail links here) */
export const invitationsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/checkin',
  beforeLoad: async ({ context, location }) => {
    const { token } = await context.session.resolved()
    if (!token) throw redirect({ to: '/login', search: { redirect: location.href } })
  },
  component: lazyScreen(() => import('../screens/checkin/invitations.tsx'), 'InvitationsScreen'),
})

export const checkinRoutes = [invitationsRoute, checkinRoute] as const
