// Who may open which page (SPEC §6, with role checks that really restrict): pathless layout routes,
// each deciding once for the pages below it, after the root has waited for the session (the stored
// token checked). Every signed-in page is under one layout; the areas of one role are under a
// layout of that role within it; login and sign up are under the visitors' layout.
import { createRoute, redirect } from '@tanstack/react-router'
import type { Role } from '../../../contracts/accounts.ts'
import type { Live } from '../live/live.ts'
import { type RouterContext, rootRoute } from './root.tsx'

declare module '@tanstack/router-core' {
  interface StaticDataRouteOption {
    /** the roles an area is for */
    roles?: readonly Role[]
    /**
     * Data the page fetches with the stored token alone (or none), started when the app boots on
     * this page, beside the session check, instead of after it (main.tsx); its loader or screen asks
     * again and is not fetched twice. A token that turns out to be no good gets a 401 nobody shows.
     */
    atBoot?: (args: { context: RouterContext; params: Record<string, string>; live: Live }) => void
  }
}

/**
 * Any signed-in account; below it, `user` is that account. A visitor is sent to log in and comes
 * back here afterwards, except to an area of one role, which sends visitors to the landing page
 * (SPEC §6: Create Event, Create Organizer).
 */
export const signedInLayout = createRoute({
  getParentRoute: () => rootRoute,
  id: '_signed-in',
  beforeLoad: async ({ context, location, matches }) => {
    const { user } = await context.session.resolved()
    if (user) return { user }
    if (matches.some((match) => match.staticData.roles)) throw redirect({ to: '/' })
    throw redirect({ to: '/login', search: { redirect: location.href } })
  },
})

/** The area of some roles, within the signed-in layout: any other account goes to the landing page. */
function areaOf<const Id extends string>(id: Id, ...roles: Role[]) {
  return createRoute({
    getParentRoute: () => signedInLayout,
    id,
    staticData: { roles },
    beforeLoad: ({ context }) => {
      if (!roles.includes(context.user.role)) throw redirect({ to: '/' })
    },
  })
}

export const userArea = areaOf('_user', 'user')
export const organizersArea = areaOf('_organizers', 'organizers')
export const adminArea = areaOf('_admin', 'admin')
/** what organizers and admins both have: their API tokens (an organizer's webhooks are theirs alone) */
export const organizersAndAdminArea = areaOf('_organizers-and-admin', 'organizers', 'admin')

/** Visitors only (login, sign up): a signed-in account goes to the landing page. */
export const visitorsLayout = createRoute({
  getParentRoute: () => rootRoute,
  id: '_visitors',
  beforeLoad: async ({ context }) => {
    const { user } = await context.session.resolved()
    if (user) throw redirect({ to: '/' })
  },
})
