// Routes of what organizers and admins connect to the API with: their API tokens, and an
// organizer's webhooks (issue 43).
import { createRoute } from '@tanstack/react-router'
import { lazyScreen } from '../ui/retry-import.ts'
import { organizersAndAdminArea, organizersArea } from './layouts.ts'

/** The account's API tokens: made with scopes, events and an expiry, listed with their last use, revoked. */
export const apiTokensRoute = createRoute({
  getParentRoute: () => organizersAndAdminArea,
  path: '/account/tokens',
  component: lazyScreen(() => import('../screens/integrations/api-tokens.tsx'), 'ApiTokensScreen'),
})

/**
 * The organizer's webhooks: added with a URL, kinds and events (the signing secret shown once),
 * listed with their deliveries, sent again or removed. The address mailed when one is turned off.
 */
export const webhooksRoute = createRoute({
  getParentRoute: () => organizersArea,
  path: '/account/webhooks',
  component: lazyScreen(() => import('../screens/integrations/webhooks.tsx'), 'WebhooksScreen'),
})

export const integrationRoutes = [apiTokensRoute] as const
export const organizerIntegrationRoutes = [webhooksRoute] as const
