// The dashboards' pushes on cached pages, without a browser: a row replaced in place with the
// totals moved by its change, a push older than the page ignored, a page that cannot be worked out
// refetched; attendance set in place or the page refetched; and the live refetches at most once a
// second per query, whatever the rate of pushes.
import { QueryClient, QueryObserver } from '@tanstack/react-query'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { AttendeesPage, DashboardEventsPage, EventFigures } from '../../contracts/dashboards.ts'
import { followDashboards } from '../../web/src/live/dashboard-pushes.ts'
import { withAttendee, withFigures, withTotals } from '../../web/src/live/dashboards.ts'
import { coalescedRefresh } from '../../web/src/live/refresh.ts'

const row = (id: string, changes: Partial<EventFigures> = {}): EventFigures => ({
  _id: id,
  organizerId: 'org-1',
  title: `Event ${id}`,
  description: 'An evening.',
  category: 'Music',
  location: 'Pune',
  date: '2031-01-01',
  time: '18:00',
  approvalStatus: 'Approved',
  reviewReason: null,
  cancelledAt: null,
  version: 2,
  capacity: 100,
  sold: 0,
  available: 100,
  revenue: 0,
  attendees: 0,
  Pending: 0,
  Completed: 0,
  Failed: 0,
  position: 10,
  ...changes,
})

const page = (
  events: EventFigures[],
  totals = { events: 40, sold: 7, revenue: 3500.5 },
): DashboardEventsPage => ({
  events,
  total: 40,
  page: 1,
  limit: 25,
  totals,
})

const person = (id: string, tickets: number) => ({
  _id: id,
  username: id,
  email: `${id}@example.com`,
  tickets,
})

const attendees = (people: ReturnType<typeof person>[], total = people.length, at = 1): AttendeesPage => ({
  attendees: people,
  total,
  page: at,
  limit: 2,
  position: 10,
})

describe('an event row pushed to a page of rows', () => {
  it('replaces the row and moves the totals by its change, without a refetch', () => {
    const shown = page([row('a', { sold: 2, revenue: 1000 }), row('b')])
    const pushed = row('a', { sold: 5, revenue: 2500.25, attendees: 3, position: 11 })
    const { page: after, refetch } = withFigures(shown, pushed)
    expect(refetch).toBe(false)
    expect(after.events[0]).toEqual(pushed)
    expect(after.events[1]).toBe(shown.events[1])
    expect(after.totals).toEqual({ events: 40, sold: 10, revenue: 5000.75 })
  })

  it('ignores a push below the page; takes one at its position (read later: as new or newer)', () => {
    const shown = page([row('a', { sold: 2, position: 12 })])
    expect(withFigures(shown, row('a', { sold: 1, position: 11 }))).toEqual({ page: shown, refetch: false })
    // on PostgreSQL a fact can commit below one already pushed: its push comes at the same position
    const same = withFigures(shown, row('a', { sold: 3, position: 12 }))
    expect(same.refetch).toBe(false)
    expect(same.page.events[0]?.sold).toBe(3)
  })

  it('refetches a page the event is not on (it may belong there; the totals moved)', () => {
    const shown = page([row('a')])
    expect(withFigures(shown, row('z', { position: 11 }))).toEqual({ page: shown, refetch: true })
    // with the totals but after a review, edit or cancellation: it may belong there
    const totals = { events: 40, sold: 9, revenue: 4500.5 }
    expect(withFigures(shown, row('z', { position: 11 }), { totals }).refetch).toBe(true)
  })

  it('keeps a page the event is not on when only sales moved it and the push carries the totals', () => {
    const shown = page([row('a')])
    const totals = { events: 40, sold: 9, revenue: 4500.5 }
    expect(withFigures(shown, row('z', { sold: 2, position: 11 }), { salesOnly: true, totals })).toEqual({
      page: shown,
      refetch: false,
    })
    // the totals are set whole, unless the push is below the page
    expect(withTotals(shown, totals, 11).totals).toEqual(totals)
    expect(withTotals(shown, totals, 10).totals).toEqual(totals)
    expect(withTotals(shown, totals, 9)).toBe(shown)
    // a row on the page with whole totals: replaced, the totals left to withTotals (not moved twice)
    const held = page([row('a', { sold: 1 })])
    const applied = withFigures(withTotals(held, totals, 12), row('a', { sold: 3, position: 12 }), {
      salesOnly: true,
      totals,
    })
    expect(applied.page.events[0]?.sold).toBe(3)
    expect(applied.page.totals).toEqual(totals)
  })

  it('applies a review but refetches: the order and the filter follow the status', () => {
    const shown = page([row('a', { approvalStatus: 'Pending' })])
    const { page: after, refetch } = withFigures(shown, row('a', { position: 11 }))
    expect(refetch).toBe(true)
    expect(after.events[0]?.approvalStatus).toBe('Approved')
  })
})

describe("a person's attendance pushed to a page of attendees", () => {
  it('sets a changed ticket count in place', () => {
    const shown = attendees([person('ann', 1), person('bob', 1)], 5)
    const { page: after, refetch } = withAttendee(shown, person('bob', 3), 11, false)
    expect(refetch).toBe(false)
    expect(after.attendees[1]?.tickets).toBe(3)
  })

  it('ignores a push below the page; takes one at its position', () => {
    const shown = attendees([person('ann', 1)])
    expect(withAttendee(shown, person('ann', 0), 9, false)).toEqual({ page: shown, refetch: false })
    expect(withAttendee(shown, person('ann', 2), 10, false).page.attendees[0]?.tickets).toBe(2)
  })

  it('removes someone who left; a page followed by others is refetched, the last one is not', () => {
    const first = attendees([person('ann', 1), person('bob', 1)], 3)
    const left = withAttendee(first, person('ann', 0), 11, false)
    expect(left.page.attendees.map((p) => p._id)).toEqual(['bob'])
    expect(left.page.total).toBe(2)
    expect(left.refetch).toBe(true)

    const last = attendees([person('cat', 1)], 3, 2)
    expect(withAttendee(last, person('cat', 0), 11, false)).toEqual({
      page: { ...last, attendees: [], total: 2 },
      refetch: false,
    })
  })

  it('refetches for someone new; someone absent from a page of everyone who leaves changes nothing', () => {
    const everyone = attendees([person('ann', 1)], 1)
    expect(withAttendee(everyone, person('dan', 2), 11, false).refetch).toBe(true)
    expect(withAttendee(everyone, person('dan', 0), 11, false)).toEqual({ page: everyone, refetch: false })
    // a search may hide them: the page cannot tell
    expect(withAttendee(everyone, person('dan', 0), 11, true).refetch).toBe(true)
  })
})

/** a cache with two dashboard pages, one holding event a (1 sold), the other event b */
function twoPages() {
  const client = new QueryClient()
  const refetched: unknown[] = []
  const pushes = followDashboards(client, (key) => refetched.push(key))
  const holding = ['dashboard-events', { page: 1, limit: 25 }]
  const other = ['dashboard-events', { page: 2, limit: 25 }]
  client.setQueryData(holding, page([row('a', { sold: 1 })]))
  client.setQueryData(other, page([row('b')]))
  return { client, refetched, pushes, holding, other }
}

describe('the pushes on the query cache', () => {
  it("take a sale's totals on a page the event is not on, without a refetch, and keep them over an older fetch", async () => {
    const { client, refetched, pushes, holding, other } = twoPages()

    const totals = { events: 40, sold: 10, revenue: 5000.5 }
    pushes.figures(row('a', { sold: 4, position: 12 }), { salesOnly: true, totals })
    expect(refetched).toEqual([])
    expect(client.getQueryData<DashboardEventsPage>(other)?.totals).toEqual(totals)
    // the page holding the row: the row replaced, the totals whole (not moved by the change again)
    expect(client.getQueryData<DashboardEventsPage>(holding)?.events[0]?.sold).toBe(4)
    expect(client.getQueryData<DashboardEventsPage>(holding)?.totals).toEqual(totals)
    // a fetch read before the push answers after it: the newer totals and row win, counted once
    await client.fetchQuery({
      queryKey: holding,
      queryFn: async () =>
        page([row('a', { sold: 1, position: 11 })], { events: 40, sold: 7, revenue: 3500.5 }),
    })
    expect(client.getQueryData<DashboardEventsPage>(holding)?.totals).toEqual(totals)
    expect(client.getQueryData<DashboardEventsPage>(holding)?.events[0]?.sold).toBe(4)
    await client.fetchQuery({
      queryKey: other,
      queryFn: async () => page([row('b', { position: 11 })], { events: 40, sold: 7, revenue: 3500.5 }),
    })
    expect(client.getQueryData<DashboardEventsPage>(other)?.totals).toEqual(totals)
    // a review of an event not on a page still refetches it
    pushes.figures(row('c', { position: 13, approvalStatus: 'Pending' }), { salesOnly: false, totals })
    expect(refetched).toEqual([holding, other])
    pushes.stop()
  })

  it('set every cached page holding the row, refetch the ones not holding it, and outlast a stale fetch', async () => {
    const { client, refetched, pushes, holding, other } = twoPages()
    client.setQueryData(['event-figures', 'a'], row('a', { sold: 1 }))

    pushes.figures(row('a', { sold: 4, position: 12 }))
    expect(client.getQueryData<DashboardEventsPage>(holding)?.events[0]?.sold).toBe(4)
    expect(client.getQueryData<DashboardEventsPage>(holding)?.totals.sold).toBe(10)
    expect(client.getQueryData<EventFigures>(['event-figures', 'a'])?.sold).toBe(4)
    expect(refetched).toEqual([other])

    // A fetch read before that push answers after it: the push is applied to what it brings.
    await client.fetchQuery({
      queryKey: holding,
      queryFn: async () => page([row('a', { sold: 1, position: 11 })]),
    })
    expect(client.getQueryData<DashboardEventsPage>(holding)?.events[0]?.sold).toBe(4)
    // one read after it stays as it is
    await client.fetchQuery({
      queryKey: holding,
      queryFn: async () => page([row('a', { sold: 6, position: 13 })], { events: 40, sold: 12, revenue: 0 }),
    })
    expect(client.getQueryData<DashboardEventsPage>(holding)?.events[0]?.sold).toBe(6)
    pushes.stop()
  })

  it("sets an attendee pushed for an event whose list is shown, and remembers it for that list's next fetch", async () => {
    const client = new QueryClient()
    const refetched: unknown[] = []
    const pushes = followDashboards(client, (key) => refetched.push(key))
    const key = ['attendees', 'e1', { page: 1, limit: 2 }]
    client.setQueryData(key, attendees([person('ann', 1), person('bob', 1)], 4))
    pushes.attendee({ eventId: 'e1', attendee: person('bob', 2) }, 11)
    expect(client.getQueryData<AttendeesPage>(key)?.attendees[1]?.tickets).toBe(2)
    await client.fetchQuery({
      queryKey: key,
      queryFn: async () => attendees([person('ann', 1), person('bob', 1)], 4),
    })
    expect(client.getQueryData<AttendeesPage>(key)?.attendees[1]?.tickets).toBe(2)
    expect(refetched).toEqual([])
    // another event's push touches nothing
    pushes.attendee({ eventId: 'e2', attendee: person('ann', 0) }, 12)
    expect(client.getQueryData<AttendeesPage>(key)?.attendees).toHaveLength(2)
    pushes.stop()
  })
})

describe('live refetches with a minimum interval', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('fetch a query at once, then at most once a second however many pushes ask', async () => {
    const client = new QueryClient()
    const queryFn = vi.fn(async () => 'figures')
    // an observer makes the query active, as a screen showing it does
    const observer = new QueryObserver(client, { queryKey: ['analytics', 'e1'], queryFn })
    const unsubscribe = observer.subscribe(() => {})
    await vi.advanceTimersByTimeAsync(0)
    queryFn.mockClear()
    const refresh = coalescedRefresh(client)
    const ask = () => refresh({ queryKey: ['analytics', 'e1'], minInterval: 1000 })

    ask()
    await vi.advanceTimersByTimeAsync(0)
    expect(queryFn).toHaveBeenCalledTimes(1)
    // 50 pushes over the next 2.5 s
    for (let i = 0; i < 50; i++) {
      ask()
      await vi.advanceTimersByTimeAsync(50)
    }
    // at 0 s, 1 s and 2 s
    expect(queryFn).toHaveBeenCalledTimes(3)
    await vi.advanceTimersByTimeAsync(2000)
    // the asks after 2 s are answered by one fetch at 3 s, and nothing follows
    expect(queryFn).toHaveBeenCalledTimes(4)
    await vi.advanceTimersByTimeAsync(5000)
    expect(queryFn).toHaveBeenCalledTimes(4)
    unsubscribe()
  })
})
