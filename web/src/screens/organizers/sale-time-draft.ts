// The sale time form's draft (issue 41): the opening as a date and time on the event's wall clock
// (TIMEZONE, the zone its own date and time are written in), a waiting room or none, and its
// admissions, a number a minute or following capacity; turned into the body of PUT onsale.
import type { OnSaleBody, OnSaleView } from '../../../../contracts/queue.ts'
import { instantIn } from '../../../../contracts/wall-clock.ts'

export type SaleTimeDraft = {
  date: string
  time: string
  waitingRoom: boolean
  admissions: 'rate' | 'capacity'
  perMinute: string
}

export const emptySaleTime: SaleTimeDraft = {
  date: '',
  time: '',
  waitingRoom: false,
  admissions: 'capacity',
  perMinute: '',
}

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

/** the form as the sale is set now */
export function draftOf(onsale: OnSaleView, timeZone?: string): SaleTimeDraft {
  return {
    ...wallClockIn(onsale.opensAt, timeZone),
    waitingRoom: onsale.waitingRoom,
    admissions: onsale.admitPerMinute === null ? 'capacity' : 'rate',
    perMinute: onsale.admitPerMinute === null ? '' : String(onsale.admitPerMinute),
  }
}

/**
 * the body to send, or what is missing (the server checks the rest and says what is wrong);
 * `opened`: the sale as saved once its room has opened, when only the rate may change
 */
export function onSaleBodyOf(
  draft: SaleTimeDraft,
  timeZone?: string,
  opened?: Pick<OnSaleView, 'opensAt' | 'waitingRoom'>,
): { body: OnSaleBody } | { error: string } {
  let opensAt: string
  let waitingRoom = draft.waitingRoom
  if (opened) {
    opensAt = opened.opensAt
    waitingRoom = opened.waitingRoom
  } else {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(draft.date) || !/^\d{2}:\d{2}$/.test(draft.time))
      return { error: 'Give the date and time the sale opens.' }
    opensAt = (
      timeZone ? instantIn(draft.date, draft.time, timeZone) : new Date(`${draft.date}T${draft.time}`)
    ).toISOString()
  }
  const body: OnSaleBody = { opensAt, waitingRoom }
  if (waitingRoom && draft.admissions === 'rate') {
    if (draft.perMinute.trim() === '') return { error: 'Give the number of people admitted a minute.' }
    body.admitPerMinute = Number(draft.perMinute)
  }
  return { body }
}

/** a room opens at its time: from then on only its rate may change */
export const hasOpened = (onsale: OnSaleView | null | undefined, now: number): boolean =>
  onsale?.waitingRoom === true && now >= Date.parse(onsale.opensAt)
