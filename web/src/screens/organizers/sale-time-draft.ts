// The sale time form's draft (issue 41): the opening as a date and time on the event's wall clock
// (TIMEZONE, the zone its own date and time are written in), a waiting room or none, and its
// admissions, a number a minute or following capacity; turned into the body of PUT onsale.
import type { OnSaleBody, OnSaleView } from '../../../../contracts/queue.ts'
import { instantIn } from '../../../../contracts/wall-clock.ts'

/** a ticket type of the event: on sale with the event, or `later` at a date and time of its own */
export type TypeTimeDraft = { ticketTypeId: string; name: string; later: boolean; date: string; time: string }

export type SaleTimeDraft = {
  date: string
  time: string
  waitingRoom: boolean
  admissions: 'rate' | 'capacity'
  perMinute: string
  /** the event's ticket types, in its order */
  types: TypeTimeDraft[]
}

type NamedType = { _id: string; type: string }

const typeDrafts = (types: readonly NamedType[]): TypeTimeDraft[] =>
  types.map((type) => ({ ticketTypeId: type._id, name: type.type, later: false, date: '', time: '' }))

export const emptySaleTime = (types: readonly NamedType[] = []): SaleTimeDraft => ({
  date: '',
  time: '',
  waitingRoom: false,
  admissions: 'capacity',
  perMinute: '',
  types: typeDrafts(types),
})

const wallClocks = new Map<string, Intl.DateTimeFormat>()

/** an instant as a date (YYYY-MM-DD) and time (HH:MM) on the wall clock of a zone (the viewer's without one) */
export function wallClockIn(instant: string, timeZone?: string): { date: string; time: string } {
  const key = timeZone ?? ''
  let format = wallClocks.get(key)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
    wallClocks.set(key, format)
  }
  const part = Object.fromEntries(format.formatToParts(new Date(instant)).map((p) => [p.type, p.value]))
  return { date: `${part.year}-${part.month}-${part.day}`, time: `${part.hour}:${part.minute}` }
}

/** the form as the sale is set now, for the event's ticket types */
export function draftOf(
  onsale: OnSaleView,
  timeZone?: string,
  types: readonly NamedType[] = [],
): SaleTimeDraft {
  return {
    ...wallClockIn(onsale.opensAt, timeZone),
    waitingRoom: onsale.waitingRoom,
    admissions: onsale.admitPerMinute === null ? 'capacity' : 'rate',
    perMinute: onsale.admitPerMinute === null ? '' : String(onsale.admitPerMinute),
    types: typeDrafts(types).map((type) => {
      const own = onsale.ticketTypes.find((t) => t.ticketTypeId === type.ticketTypeId)
      return own ? { ...type, later: true, ...wallClockIn(own.opensAt, timeZone) } : type
    }),
  }
}

const wallTime = (date: string, time: string, timeZone?: string): string | null =>
  !/^\d{4}-\d{2}-\d{2}$/.test(date) || !/^\d{2}:\d{2}$/.test(time)
    ? null
    : (timeZone ? instantIn(date, time, timeZone) : new Date(`${date}T${time}`)).toISOString()

/**
 * the body to send, or what is missing (the server checks the rest and says what is wrong);
 * `opened`: the sale as saved once its room has opened, when only the rate may change
 */
export function onSaleBodyOf(
  draft: SaleTimeDraft,
  timeZone?: string,
  opened?: Pick<OnSaleView, 'opensAt' | 'waitingRoom'>,
  /** the time now, when the form is sent: a waiting room's opening must be still to come */
  now?: number,
): { body: OnSaleBody } | { error: string } {
  let opensAt: string
  let waitingRoom = draft.waitingRoom
  if (opened) {
    opensAt = opened.opensAt
    waitingRoom = opened.waitingRoom
  } else {
    const at = wallTime(draft.date, draft.time, timeZone)
    if (at === null) return { error: 'Give the date and time the sale opens.' }
    // a room whose time has passed opens at once, its line never formed, and then keeps its time
    if (waitingRoom && now !== undefined && Date.parse(at) <= now) return { error: SALE_TIME_PASSED }
    opensAt = at
  }
  const body: OnSaleBody = { opensAt, waitingRoom }
  // every type is sent, so that one no longer opening later goes on sale with the event
  if (draft.types.length > 0) {
    const ticketTypes: NonNullable<OnSaleBody['ticketTypes']> = []
    for (const type of draft.types.filter((t) => t.later)) {
      const at = wallTime(type.date, type.time, timeZone)
      if (at === null) return { error: typeTimeMissing(type.name) }
      ticketTypes.push({ ticketType: type.ticketTypeId, opensAt: at })
    }
    body.ticketTypes = ticketTypes
  }
  if (waitingRoom && draft.admissions === 'rate') {
    if (draft.perMinute.trim() === '') return { error: 'Give the number of people admitted a minute.' }
    body.admitPerMinute = Number(draft.perMinute)
  }
  return { body }
}

export const SALE_TIME_PASSED =
  'That time has passed: a sale with a waiting room opens at a time still to come (on the event’s clock).'

export const typeTimeMissing = (name: string) => `Give the date and time ${name} goes on sale.`

/** a room opens at its time: from then on only its rate may change */
export const hasOpened = (onsale: OnSaleView | null | undefined, now: number): boolean =>
  onsale?.waitingRoom === true && now >= Date.parse(onsale.opensAt)
