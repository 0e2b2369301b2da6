// Events: creation fields, the event object of API.md, filters and approval.
import * as v from 'valibot'
import { StateCode } from './billing.ts'
import { hasWholePaise, isCalendarDate, PathParams, pageNumber } from './common.ts'

export { hasWholePaise, isCalendarDate }

/** the names the event form offers first (SPEC); organizers name their own too (issue 40: Stalls, Balcony) */
export const ticketTypeNames = ['General Admission', 'VIP'] as const
export const TicketTypeName = v.pipe(
  v.string('Ticket type needs a name.'),
  v.trim(),
  v.nonEmpty('Ticket type needs a name.'),
  v.maxLength(40, 'Ticket type names have at most 40 characters.'),
)
/** a ticket type as an order names it: its name (General Admission, VIP, any case) or its _id */
export const TicketTypeChoice = v.pipe(
  v.string('Choose a ticket type.'),
  v.trim(),
  v.nonEmpty('Choose a ticket type.'),
  v.maxLength(64),
)
export type TicketTypeName = v.InferOutput<typeof TicketTypeName>

export const approvalStatuses = ['Pending', 'Approved', 'Rejected'] as const
export const ApprovalStatus = v.picklist(approvalStatuses)
export type ApprovalStatus = v.InferOutput<typeof ApprovalStatus>

/** A YYYY-MM-DDTHH:MM (as `<input type="datetime-local">` sends it) on a real calendar day. */
export const isWallClock = (text: string) => {
  const match = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d$/.exec(text)
  return match !== null && isCalendarDate(match[1] ?? '')
}

export const SALES_END_AFTER_START = 'Sales must end before the event starts.'
/** a taxed ticket type needs the place of supply: where the event is held (issue 42) */
export const STATE_NEEDED_FOR_TAX = 'State is required when a ticket type has GST.'
export const gstRateRefusal = (rates: readonly number[]) =>
  `GST rate must be one of ${rates.join(', ')} percent.`

const required = (label: string, max: number) =>
  v.pipe(
    v.string(`${label} is required.`),
    v.trim(),
    v.nonEmpty(`${label} is required.`),
    v.maxLength(max, `${label} must be at most ${max} characters.`),
  )

/** A number typed into a form may arrive as text; both are accepted. */
const numberLike = (label: string) =>
  v.pipe(
    v.union(
      [v.number(), v.pipe(v.string(), v.trim(), v.regex(/^\d+(\.\d+)?$/), v.transform(Number))],
      `${label} must be a number.`,
    ),
    v.finite(`${label} must be a number.`),
  )

export const TicketTypeInput = v.object({
  type: TicketTypeName,
  price: v.pipe(
    numberLike('Price'),
    v.minValue(0, 'Price cannot be negative.'),
    v.maxValue(10_000_000, 'Price must be at most ₹1,00,00,000.'),
    v.check(hasWholePaise, 'Price can have at most two decimals.'),
  ),
  quantity: v.pipe(
    numberLike('Quantity'),
    v.integer('Quantity must be a whole number.'),
    v.minValue(1, 'Quantity must be at least 1.'),
    v.maxValue(1_000_000, 'Quantity must be at most 1,000,000.'),
  ),
  /** its GST rate in percent (issue 42): one of the configured rates, checked by the server */
  taxRate: v.optional(
    v.pipe(
      numberLike('GST rate'),
      v.minValue(0, 'GST rate cannot be negative.'),
      v.maxValue(100, 'GST rate must be at most 100 percent.'),
    ),
  ),
})
export type TicketTypeInput = v.InferInput<typeof TicketTypeInput>

export const TicketTypesInput = v.pipe(
  v.array(TicketTypeInput, 'Ticket types must be a list.'),
  v.minLength(1, 'Add at least one ticket type.'),
  v.check(
    (list) => new Set(list.map((t) => String(t.type).trim().toLowerCase())).size === list.length,
    'Each ticket type can be listed only once.',
  ),
)

/**
 * The text fields of POST /event/create (multipart); ticketTypes arrives as JSON text. salesEnd is
 * optional (empty means none): a wall clock in TIMEZONE, like date and time, at which booking
 * closes if that is earlier than the start.
 */
const eventFields = {
  title: required('Title', 150),
  description: required('Description', 5000),
  date: v.pipe(
    required('Date', 10),
    v.isoDate('Date must be a date (YYYY-MM-DD).'),
    v.check(isCalendarDate, 'Date must be a real day on the calendar.'),
  ),
  time: v.pipe(required('Time', 5), v.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Time must be a time (HH:MM).')),
  location: required('Location', 200),
  category: required('Category', 80),
  ticketTypes: TicketTypesInput,
}
/** the GST state code of where the event is held (issue 42): '' is none */
const taxState = v.optional(
  v.union(
    [
      v.pipe(
        v.literal(''),
        v.transform(() => null),
      ),
      v.null(),
      StateCode,
    ],
    'State must be a two-digit GST state code (27 for Maharashtra).',
  ),
)
/** whether the ticket types' prices include GST: a boolean, or its text as a form sends it */
const pricesIncludeTax = v.optional(
  v.union(
    [
      v.boolean(),
      v.pipe(
        v.picklist(['true', 'false', 'on', 'off', '1', '0']),
        v.transform((text) => text === 'true' || text === 'on' || text === '1'),
      ),
    ],
    'Prices include tax must be true or false.',
  ),
)

const salesEndText = v.pipe(
  v.string('Sales end must be a date and time.'),
  v.trim(),
  v.check(
    (text) => text === '' || isWallClock(text),
    'Sales end must be a real date and time (YYYY-MM-DDTHH:MM).',
  ),
)

export const CreateEventFields = v.pipe(
  v.object({
    ...eventFields,
    salesEnd: v.optional(
      v.pipe(
        salesEndText,
        v.transform((text) => (text === '' ? undefined : text)),
      ),
    ),
    state: taxState,
    pricesIncludeTax,
  }),
  // Both are wall clocks in the same zone, so their texts compare as the times do.
  v.forward(
    v.partialCheck(
      [['date'], ['time'], ['salesEnd']],
      (input) => input.salesEnd === undefined || input.salesEnd <= `${input.date}T${input.time}`,
      SALES_END_AFTER_START,
    ),
    ['salesEnd'],
  ),
)
export type CreateEventFields = v.InferOutput<typeof CreateEventFields>

/** media kept by an edit: URLs the event has now, as its views give them (absolute or not) */
const KeptMedia = v.pipe(
  v.array(
    v.object({ url: v.pipe(v.string('A media URL must be text.'), v.maxLength(2000)) }),
    'Media must be a list of {url}.',
  ),
  v.maxLength(20, 'Too many media.'),
)

/**
 * PUT /event/{id} (issue 17): any of the fields of creation, each checked as there; what is left
 * out stays. salesEnd '' removes the sales end. images and videos list the media to keep (of the
 * event's own); new files come as multipart parts, added after them. ticketTypes is the whole new
 * list: a type kept keeps its sales, a capacity never goes below the seats sold and held.
 */
export const EditEventFields = v.object({
  title: v.optional(eventFields.title),
  description: v.optional(eventFields.description),
  date: v.optional(eventFields.date),
  time: v.optional(eventFields.time),
  location: v.optional(eventFields.location),
  category: v.optional(eventFields.category),
  ticketTypes: v.optional(TicketTypesInput),
  salesEnd: v.optional(
    v.pipe(
      salesEndText,
      v.transform((text) => (text === '' ? null : text)),
    ),
  ),
  state: taxState,
  pricesIncludeTax,
  images: v.optional(KeptMedia),
  videos: v.optional(KeptMedia),
})
export type EditEventFields = v.InferOutput<typeof EditEventFields>

export const TicketTypeView = v.object({
  _id: v.string(),
  type: TicketTypeName,
  price: v.number(),
  /** seats on sale now (capacity − sold − held), live: the original client shows it as "Available" */
  quantity: v.number(),
  /** the same live count as quantity */
  available: v.number(),
  /** what the organizer set (creation takes it in `quantity`) */
  capacity: v.number(),
  /** its GST rate in percent (issue 42) */
  taxRate: v.number(),
})
export type TicketTypeView = v.InferOutput<typeof TicketTypeView>

const Media = v.object({ url: v.string() })

export const EventView = v.object({
  _id: v.string(),
  title: v.string(),
  description: v.string(),
  date: v.string(),
  time: v.string(),
  location: v.string(),
  category: v.string(),
  approvalStatus: ApprovalStatus,
  organizer: v.string(),
  images: v.array(Media),
  videos: v.array(Media),
  candidates: v.array(v.string()),
  ticketTypes: v.array(TicketTypeView),
  createdAt: v.string(),
  /** when booking closes before the start (YYYY-MM-DDTHH:MM in TIMEZONE, as entered), or null */
  salesEnd: v.nullable(v.string()),
  /** the admin's reason for the latest approval or rejection, when one was given */
  reviewReason: v.nullable(v.string()),
  /** when the event was called off, and why (issue 17); null while it goes ahead */
  cancelledAt: v.nullable(v.string()),
  cancelReason: v.nullable(v.string()),
  /** the GST state code of where it is held (issue 42), null when none was given */
  state: v.nullable(v.string()),
  /** whether its prices include GST (taken out of them) or not (added on top) */
  pricesIncludeTax: v.boolean(),
  /** the event's version: send it back as If-Match to change the event only as seen */
  version: v.number(),
})
export type EventView = v.InferOutput<typeof EventView>
export const EventList = v.array(EventView)

/** GET /event's paging (issue 18): absent, the whole listing (the bare array of API.md); with
 * `page` (from 1), that page of `limit` events (default 50, at most 200), still a bare array, the
 * whole count in the X-Total-Count header */
export const EVENT_PAGE_LIMIT = 50
export const EVENT_PAGE_MAX = 200
export const EventListQuery = v.object({
  page: pageNumber('page', 100_000),
  limit: pageNumber('limit', EVENT_PAGE_MAX),
})

export const EventParams = PathParams({
  id: v.pipe(v.string(), v.regex(/^[a-zA-Z0-9_-]{1,64}$/, 'Event not found.')),
})

/** 'text' (the default when filterType is absent or blank): words in title, description, location
 * or category, through the full-text index. */
export const filterTypes = ['text', 'category', 'date', 'location', 'price'] as const
export type FilterType = (typeof filterTypes)[number]
export const EventFilterQuery = v.object({
  search: v.pipe(
    v.string('Please enter a search term and select a filter type.'),
    v.trim(),
    v.nonEmpty('Please enter a search term and select a filter type.'),
    v.maxLength(200, 'The search term is too long.'),
  ),
  filterType: v.optional(
    v.pipe(
      v.string('Filter type must be text, category, date, location or price.'),
      v.trim(),
      v.toLowerCase(),
      v.transform((type) => type || 'text'),
      v.picklist(filterTypes, 'Filter type must be text, category, date, location or price.'),
    ),
    'text',
  ),
})

export const CreateEventReply = v.object({ message: v.string(), event: EventView })
export const EditEventReply = v.object({ message: v.string(), event: EventView })
/** POST /event/{id}/cancel (issue 17) */
export const CancelEventBody = v.object({ reason: required('Reason', 500) })
export const CancelEventReply = v.object({ message: v.string(), event: EventView })

export const ReviewBody = v.object({
  status: v.picklist(['Approved', 'Rejected'], 'Status must be Approved or Rejected.'),
  /** why (shown to the organizer); empty is none */
  reason: v.optional(
    v.pipe(
      v.string('The reason must be text.'),
      v.trim(),
      v.maxLength(500, 'The reason is too long (500 characters at most).'),
    ),
  ),
})
export const ReviewReply = v.object({ message: v.string(), event: EventView })
