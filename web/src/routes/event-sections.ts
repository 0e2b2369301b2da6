// The sections of an organizer's event page, each at its own address (?section=), so a section can
// be linked to, bookmarked and gone back to. The overview has no parameter: the page's plain address
// opens on it, and an unknown section is read as the overview rather than refused.
import * as v from 'valibot'

export const eventSectionIds = [
  'attendees',
  'analytics',
  'promo-codes',
  'check-in',
  'seat-map',
  'sale-time',
] as const
export type EventSectionId = (typeof eventSectionIds)[number]

export const OrganizerEventSearch = v.object({
  section: v.fallback(v.optional(v.picklist(eventSectionIds)), undefined),
})
