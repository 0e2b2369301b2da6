// Routes of what organizers and admins connect to the API with: their API tokens (issue 43).
import { createRoute } from '@tanstack/react-router'
import { lazyScreen } from '../ui/retry-import.ts'
import { organizersAndAdminArea } from './layouts.ts'

/** The account's API tokens: made with scopes, events and an expiry, listed with their last use, revoked. */
export const apiTokensRoute = createRoute({
  getParentRoute: () => organizersAndAdminArea,
  path: '/account/tokens',
  component: lazyScreen(() => import('../screens/integrations/api-tokens.tsx'), 'ApiTokensScreen'),
})

export const integrationRoutes = [apiTokensRoute] as const
