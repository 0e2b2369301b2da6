// API tokens (issue 43): an organizer's (or admin's) named tokens, each with scopes, optionally
// bound to some of their events and with an expiry. The secret is shown once; only its hash is kept.
import * as v from 'valibot'
import { isInstant, PathParams } from './common.ts'

export const tokenScopes = [
  'events:read',
  'events:write',
  'orders:read',
  'attendees:read',
  'checkin:write',
] as const
export type TokenScope = (typeof tokenScopes)[number]

/** the start of every API token's text: it tells a token from a session's JWT */
export const API_TOKEN_PREFIX = 'tkt_'

export const CreateTokenBody = v.pipe(
  v.object({
    name: v.pipe(
      v.string('Name is required.'),
      v.trim(),
      v.nonEmpty('Name is required.'),
      v.maxLength(80, 'Name must be at most 80 characters.'),
    ),
    scopes: v.pipe(
      v.array(
        v.picklist(tokenScopes, `Scopes must be some of ${tokenScopes.join(', ')}.`),
        'Scopes must be a list.',
      ),
      v.minLength(1, 'Choose at least one scope.'),
      v.transform((scopes) => [...new Set(scopes)]),
    ),
    eventIds: v.optional(
      v.nullable(
        v.pipe(
          v.array(
            v.pipe(
              v.string('An event id must be text.'),
              v.regex(/^[a-zA-Z0-9_-]{1,64}$/, 'Event not found.'),
            ),
          ),
          v.minLength(1, 'Name at least one event, or leave eventIds out for all of them.'),
          v.maxLength(100, 'A token can be bound to at most 100 events.'),
          v.transform((ids) => [...new Set(ids)]),
        ),
      ),
    ),
    expiresAt: v.optional(
      v.nullable(
        v.pipe(
          v.string('Expires at must be a date and time.'),
          v.isoTimestamp('Expires at must be an ISO date and time (2027-01-31T00:00:00Z).'),
          v.check(isInstant, 'Expires at must be an ISO date and time (2027-01-31T00:00:00Z).'),
        ),
      ),
    ),
  }),
)
export type CreateTokenBody = v.InferOutput<typeof CreateTokenBody>

export const TokenView = v.object({
  id: v.string(),
  name: v.string(),
  scopes: v.array(v.string()),
  eventIds: v.nullable(v.array(v.string())),
  expiresAt: v.nullable(v.string()),
  lastUsedAt: v.nullable(v.string()),
  lastAddress: v.nullable(v.string()),
})
export type TokenView = v.InferOutput<typeof TokenView>

export const CreatedTokenView = v.object({
  id: v.string(),
  name: v.string(),
  scopes: v.array(v.string()),
  eventIds: v.nullable(v.array(v.string())),
  expiresAt: v.nullable(v.string()),
  /** the secret: shown this once, never again */
  token: v.string(),
})

export const TokenParams = PathParams({
  id: v.pipe(v.string(), v.regex(/^[a-f0-9]{24}$/, 'Token not found.')),
})

export const TOKEN_NOT_FOUND = 'Token not found.'
/** tokens one account may hold at once (revoked and expired ones not counted): each has its own
 * allowance of requests a minute */
export const MAX_TOKENS = 20
export const TOO_MANY_TOKENS = `You have ${MAX_TOKENS} API tokens: revoke one before making another.`
export const TOKEN_REVOKED = 'Token revoked.'
export const EXPIRES_IN_PAST = 'Expires at must be in the future.'
export const TOKEN_INVALID = 'This API token is not valid (revoked, expired or unknown).'
export const TOKEN_NOT_HERE = 'API tokens cannot be used here: sign in instead.'
export const tokenLacksScope = (scope: TokenScope) => `This API token does not have the scope ${scope}.`
export const TOKEN_OTHER_EVENT = 'This API token is not for this event.'
export const TOKEN_SOME_EVENTS = 'This API token is for some events only, and this asks about all of them.'
