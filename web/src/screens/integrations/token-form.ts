// What the API tokens screen works out: the form's draft checked by the server's own schema into
// the body to send (or a message per field), the field a server's message belongs to, and how a
// token's events, expiry and last use read in its row.
import * as v from 'valibot'
import { CreateTokenBody, EXPIRES_IN_PAST, type TokenScope } from '../../../../contracts/tokens.ts'
import { formatInstantIn } from '../../ui/format.ts'
import { tokenTexts } from './token-texts.ts'

export type TokenDraft = {
  name: string
  scopes: TokenScope[]
  /** all of the account's events, or only those in eventIds */
  events: 'all' | 'some'
  eventIds: string[]
  /** the last day it works (YYYY-MM-DD, the viewer's calendar), or '' for no expiry */
  expires: string
}

export const emptyDraft: TokenDraft = { name: '', scopes: [], events: 'all', eventIds: [], expires: '' }

export type TokenField = 'name' | 'scopes' | 'eventIds' | 'expiresAt' | 'form'
export type TokenErrors = Partial<Record<TokenField, string>>

const fields: readonly TokenField[] = ['name', 'scopes', 'eventIds', 'expiresAt']

/** the form's field a message of the server (or of the schema) names: `scopes.1` is Scopes' */
export function fieldOf(path: string | undefined | null): TokenField {
  const first = (path ?? '').split('.')[0] as TokenField
  return fields.includes(first) ? first : 'form'
}

/** a refused create's messages keyed by the form's fields, the first of each kept */
export function tokenErrorsOf(messages: Record<string, string>): TokenErrors {
  const errors: TokenErrors = {}
  for (const [path, message] of Object.entries(messages)) errors[fieldOf(path)] ??= message
  return errors
}

/** the instant a token chosen to work through `day` stops: the start of the next day, here */
export function expiryOf(day: string): Date | null {
  const parts = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day)
  if (!parts) return null
  const end = new Date(Number(parts[1]), Number(parts[2]) - 1, Number(parts[3]) + 1)
  return Number.isNaN(end.getTime()) ? null : end
}

/** the draft checked by the server's schema: the body to send, or a message per field */
export function checkTokenDraft(
  draft: TokenDraft,
  now: Date,
): { ok: true; body: CreateTokenBody } | { ok: false; errors: TokenErrors } {
  const errors: TokenErrors = {}
  let expiresAt: string | undefined
  if (draft.expires) {
    const end = expiryOf(draft.expires)
    if (!end || end.getTime() <= now.getTime()) errors.expiresAt = EXPIRES_IN_PAST
    else expiresAt = end.toISOString()
  }
  if (draft.events === 'some' && draft.eventIds.length === 0) errors.eventIds = tokenTexts.chooseEvents
  const checked = v.safeParse(CreateTokenBody, {
    name: draft.name,
    scopes: draft.scopes,
    ...(draft.events === 'some' && draft.eventIds.length > 0 ? { eventIds: draft.eventIds } : {}),
    ...(expiresAt ? { expiresAt } : {}),
  })
  if (!checked.success)
    for (const issue of checked.issues) errors[fieldOf(v.getDotPath(issue))] ??= issue.message
  if (checked.success && Object.keys(errors).length === 0) return { ok: true, body: checked.output }
  return { ok: false, errors }
}

/** a token's events in its row: All, the titles of a few, or how many */
export function eventsText(eventIds: readonly string[] | null, titles: ReadonlyMap<string, string>): string {
  if (eventIds === null) return tokenTexts.all
  const named = eventIds.map((id) => titles.get(id))
  if (eventIds.length <= 3 && named.every((title) => title !== undefined)) return named.join(', ')
  return eventIds.length === 1 ? '1 event' : `${eventIds.length} events`
}

/** an instant of a token's row (its expiry, its last use) in the viewer's zone, or Never */
export const whenOrNever = (instant: string | null): string =>
  instant === null ? tokenTexts.never : formatInstantIn(instant)
