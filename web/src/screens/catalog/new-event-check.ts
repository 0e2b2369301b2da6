// The event form's own check (SPEC §5) with the same contract the server applies, and the
// messages keyed the way the server names fields ('title', 'ticketTypes.0.price').
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

export function checkNewEvent(
  draft: EventDraft,
): { ok: true; event: CheckedEvent } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {}
  draft.ticketTypes.forEach((ticket, index) => {
    if (ticket.price.trim() === '') errors[`ticketTypes.${index}.price`] = 'Price is required.'
    if (ticket.quantity.trim() === '') errors[`ticketTypes.${index}.quantity`] = 'Quantity is required.'
  })
  const checked = v.safeParse(CreateEventFields, {
    ...draft,
    ticketTypes: draft.ticketTypes.map(({ type, price, quantity }) => ({ type, price, quantity })),
  })
  if (!checked.success) {
    for (const issue of checked.issues) {
      const field = v.getDotPath(issue) ?? 'event'
      errors[field] ??= issue.message
    }
  }
  if (checked.success && Object.keys(errors).length === 0) return { ok: true, event: checked.output }
  return { ok: false, errors }
}
