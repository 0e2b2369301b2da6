// The event form's own check (SPEC §5): the contract the server applies (contracts/catalog.ts), with
// the messages keyed the way the server names fields ('title', 'ticketTypes.0.price').
import * as v from 'valibot'
import { CreateEventFields, type TicketTypeName } from '../../../../contracts/catalog.ts'

export type TicketTypeDraft = { key: string; type: TicketTypeName; price: string; quantity: string }

export type EventDraft = {
  title: string
  description: string
  date: string
  time: string
  location: string
  category: string
  ticketTypes: TicketTypeDraft[]
  /** YYYY-MM-DDTHH:MM from a datetime-local input, or '' for none */
  salesEnd: string
}

export type FieldErrors = Record<string, string>

export type CheckedEvent = v.InferOutput<typeof CreateEventFields>

/**
 * The draft checked by the server's own schema (CreateEventFields), nothing more or less: every
 * message is the one the server would give, keyed by its field. Run on every change, so a field's
 * message comes and goes as the organizer types.
 */
export function checkNewEvent(
  draft: EventDraft,
): { ok: true; event: CheckedEvent } | { ok: false; errors: FieldErrors } {
  const checked = v.safeParse(CreateEventFields, {
    ...draft,
    ticketTypes: draft.ticketTypes.map(({ type, price, quantity }) => ({ type, price, quantity })),
  })
  if (checked.success) return { ok: true, event: checked.output }
  const errors: FieldErrors = {}
  // one message per field: the first problem the schema finds there
  for (const issue of checked.issues) errors[v.getDotPath(issue) ?? 'event'] ??= issue.message
  return { ok: false, errors }
}
