// Realistic facts for benchmarks, written straight into a ledger (fast, and the same shapes the
// app appends), so replay and projections see a consistent history.

import { newId } from '../../../server/ids.ts'
import type { Fact } from '../../../server/ledger/ledger.ts'
import { placePlan, seatsForSale } from '../../../server/seating/plan.ts'

export type Stream = { stream: string; facts: Fact[] }

export function accountFacts(count: number, passwordHash: string): Stream[] {
  return Array.from({ length: count }, (_, i) => {
    const accountId = newId()
    return {
      stream: `account-${accountId}`,
      facts: [
        {
          type: 'AccountRegistered',
          data: {
            accountId,
            username: `buyer${i}`,
            email: `buyer${i}-${accountId}@example.com`,
            passwordHash,
            role: 'user',
            phone: null,
            createdBy: null,
          },
        },
      ],
    }
  })
}

export type EventSeed = {
  eventId: string
  organizerId: string
  ticketTypes: Array<{
    ticketTypeId: string
    type: string
    pricePaise: number
    quantity: number
    /** its GST rate in percent (issue 42), when the event is taxed */
    taxRate?: number
  }>
}

/** An event's GST fields (issue 42): where it is held, whether its prices include GST, each
 * type's rate */
export type EventTax = {
  state: string
  pricesIncludeTax: boolean
  rates: { general: number; vip: number }
}

export function eventFacts(
  organizerId: string,
  adminId: string,
  index: number,
  seats = 100_000,
  /** when it starts (a wall clock in TIMEZONE) */
  start: { date: string; time: string } = { date: '2030-01-01', time: '19:00' },
  /** VIP a section of reserved seats (issue 40): rows of 20, as many seats as VIP has; or rows of
   * `seatsPerRow` seats `pitch` apart (a stadium as the editor draws one, for the web bench) */
  seatedVip: boolean | SeatedLayout = false,
  /** taxed (issue 42): the event's state and prices with or without GST, the types' rates */
  tax?: EventTax,
): { seed: EventSeed; stream: Stream } {
  const eventId = newId()
  const ticketTypes = [
    {
      ticketTypeId: newId(),
      type: 'General Admission',
      pricePaise: (100 + (index % 50) * 10) * 100,
      quantity: seats,
      ...(tax ? { taxRate: tax.rates.general } : {}),
    },
    {
      ticketTypeId: newId(),
      type: 'VIP',
      pricePaise: (1000 + (index % 20) * 50) * 100,
      quantity: Math.ceil(seats / 10),
      ...(tax ? { taxRate: tax.rates.vip } : {}),
    },
  ]
  return {
    seed: { eventId, organizerId, ticketTypes },
    stream: {
      stream: `event-${eventId}`,
      facts: [
        {
          type: 'EventSubmitted',
          data: {
            eventId,
            organizerId,
            title: `Concert ${index}`,
            description: 'A benchmark event',
            date: start.date,
            time: start.time,
            location: ['Mumbai', 'Delhi', 'Bengaluru', 'Pune'][index % 4],
            category: ['Music', 'Comedy', 'Tech', 'Sports'][index % 4],
            images: [],
            videos: [],
            ticketTypes,
            ...(tax ? { state: tax.state, pricesIncludeTax: tax.pricesIncludeTax } : {}),
          },
        },
        { type: 'EventApproved', data: { eventId, organizerId, by: adminId } },
        ...(seatedVip
          ? [
              seatMapFact(
                eventId,
                organizerId,
                ticketTypes[1] as (typeof ticketTypes)[number],
                seatedVip === true ? undefined : seatedVip,
              ),
            ]
          : []),
      ],
    },
  }
}

/** rows of `seatsPerRow` seats, their centres `pitch` apart in both directions */
export type SeatedLayout = { seatsPerRow: number; pitch: number }

/** a seat map whose one section is the VIP type: rows R1, R2, … of 20 seats (or as `layout` says),
 * its capacity in seats */
function seatMapFact(
  eventId: string,
  organizerId: string,
  vip: { ticketTypeId: string; quantity: number },
  layout?: SeatedLayout,
): Fact {
  const perRow = layout?.seatsPerRow ?? 20
  const rows = Math.ceil(vip.quantity / perRow)
  const at = (n: number) => (layout ? n * layout.pitch : undefined)
  const body = {
    stage: layout
      ? {
          x: Math.round((perRow * layout.pitch) / 4),
          y: -4 * layout.pitch,
          w: Math.round((perRow * layout.pitch) / 2),
          h: 2 * layout.pitch,
        }
      : { x: 0, y: -3, w: 20, h: 2 },
    sections: [
      {
        name: 'VIP',
        ticketType: vip.ticketTypeId,
        rows: Array.from({ length: rows }, (_, r) => ({
          label: `R${r + 1}`,
          seats: Array.from({ length: Math.min(perRow, vip.quantity - r * perRow) }, (_, s) =>
            layout ? { number: s + 1, x: at(s), y: at(r) } : { number: s + 1 },
          ),
        })),
      },
    ],
  }
  const placed = placePlan(eventId, body, [{ id: vip.ticketTypeId, type: 'VIP' }])
  if (!placed.ok) throw new Error(`the seed's seat map: ${placed.issues[0]?.message}`)
  return {
    type: 'SeatMapPlaced',
    data: {
      eventId,
      organizerId,
      by: organizerId,
      version: 1,
      stage: placed.plan.stage,
      sections: placed.plan.sections,
      capacities: Object.fromEntries(seatsForSale(placed.plan)),
    },
  }
}

/** The fact of a hold of `quantity` seats of one ticket type, as the app appends it. */
export function heldFact(
  event: Pick<EventSeed, 'eventId' | 'organizerId'>,
  t: EventSeed['ticketTypes'][number],
  orderId: string,
  buyerId: string,
  quantity = 1,
): Fact {
  return {
    type: 'TicketsHeld',
    data: {
      orderId,
      buyerId,
      eventId: event.eventId,
      organizerId: event.organizerId,
      ticketTypeId: t.ticketTypeId,
      ticketType: t.type,
      quantity,
      unitPricePaise: t.pricePaise,
      amountPaise: t.pricePaise * quantity,
      provider: 'local',
      providerOrderId: `order_${orderId}`,
      heldUntil: '2030-01-01T00:00:00.000Z',
    },
  }
}

/** An order that was held, paid and issued: three facts on its own stream. */
export function paidOrderFacts(event: EventSeed, buyerId: string, index: number): Stream {
  const orderId = newId()
  const t = event.ticketTypes[index % event.ticketTypes.length] as EventSeed['ticketTypes'][number]
  const quantity = 1 + (index % 3)
  const amountPaise = t.pricePaise * quantity
  return {
    stream: `order-${orderId}`,
    facts: [
      heldFact(event, t, orderId, buyerId, quantity),
      {
        type: 'PaymentCaptured',
        data: { orderId, paymentId: `pay_${orderId}`, amountPaise, method: 'card' },
      },
      {
        type: 'TicketsIssued',
        data: {
          orderId,
          ownerId: buyerId,
          eventId: event.eventId,
          ticketTypeId: t.ticketTypeId,
          quantity,
          amountPaise,
          afterExpiry: false,
        },
      },
    ],
  }
}
