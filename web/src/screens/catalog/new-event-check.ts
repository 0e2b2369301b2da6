// The event form's own check (SPEC §5): the contract the server applies (contracts/catalog.ts), with
// the messages keyed the way the server names fields ('title', 'ticketTypes.0.price'), and the rule
// of its GST fields (a taxed ticket type needs the venue's state).
import * as v from 'valibot'
import { CreateEventFields, type TicketTypeName } from '../../../../contracts/catalog.ts'

export type TicketTypeDraft = {
  key: string
  type: TicketTypeName
  price: string
  quantity: string
  /** its GST rate in percent, as the select holds it ('0': none) */
  taxRate: string
}

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
  /** the GST state code of the venue, '' for none (issue 42) */
  state: string
  pricesIncludeTax: boolean
}

export type FieldErrors = Record<string, string>

export type CheckedEvent = v.InferOutput<typeof CreateEventFields>

/** an event with a taxed ticket type needs the state it is held in (the place of supply) */
export const STATE_NEEDED = 'Choose the state where the event is held: a ticket type with GST needs it.'

/** the GST fields' own problems, keyed as the server names them */
export function taxProblems(draft: Pick<EventDraft, 'state' | 'ticketTypes'>): FieldErrors {
  const taxed = draft.ticketTypes.some((ticket) => Number(ticket.taxRate) > 0)
  return taxed && draft.state === '' ? { state: STATE_NEEDED } : {}
}

/**
 * The draft checked by the server's own schema (CreateEventFields), nothing more or less: every
 * message is the one the server would give, keyed by its field. Run on every change, so a field's
 * message comes and goes as the organizer types.
 */
export function checkNewEvent(
  draft: EventDraft,
): { ok: true; event: CheckedEvent } | { ok: false; errors: FieldErrors } {
  const { title, description, date, time, location, category, salesEnd } = draft
  const checked = v.safeParse(CreateEventFields, {
    title,
    description,
    date,
    time,
    location,
    category,
    salesEnd,
    ticketTypes: draft.ticketTypes.map(({ type, price, quantity }) => ({ type, price, quantity })),
  })
  const errors: FieldErrors = taxProblems(draft)
  if (checked.success && Object.keys(errors).length === 0) return { ok: true, event: checked.output }
  // one message per field: the first problem the schema finds there
  if (!checked.success)
    for (const issue of checked.issues) errors[v.getDotPath(issue) ?? 'event'] ??= issue.message
  return { ok: false, errors }
}
