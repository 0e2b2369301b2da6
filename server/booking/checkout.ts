// The checkout's domain steps, apart from HTTP: what an order may be (the per-order limit, an
// approved event, sales still open, a ticket type of the event), its price in paise, the
// provider's order, the hold; then, once a payment is reported, its confirmation and the wait for
// what the ledger makes of it. The routes (routes.ts) only read requests and shape replies.
import { createHmac } from 'node:crypto'
import { ADMISSION_NEEDED, NOT_ON_SALE_YET, TYPE_NOT_ON_SALE_YET } from '../../contracts/queue.ts'
import { NO_SEATMAP, seatsKeptForWaitlist } from '../../contracts/seating.ts'
import type { Throttle } from '../accounts/throttle.ts'
import type { HeldParties } from '../billing/invoicing.ts'
import type { BillingQueries } from '../billing/queries.ts'
import { feeCharged, type OrderFeeTerms, type OrderTaxTerms, orderMoney } from '../billing/tax.ts'
import type { CatalogQueries, EventRow, TicketTypeRow } from '../catalog/queries.ts'
import type { Config } from '../config.ts'
import type { LedgerPort } from '../db/store.ts'
import { conflict, forbidden, invalid, notFound, seatsConflict } from '../errors.ts'
import { newId, streams } from '../ids.ts'
import { job, jobIds } from '../jobs/catalogue.ts'
import { enqueueOrDoNow, type Jobs } from '../jobs/port.ts'
import { streamFacts } from '../ledger/decider.ts'
import type { FactMeta } from '../ledger/ledger.ts'
import type { PaymentGateway } from '../payments/port.ts'
import { placeOf, type Room, typeOpensAt } from '../queue/decide.ts'
import type { QueueQueries } from '../queue/queries.ts'
import type { SeatingQueries } from '../seating/queries.ts'
import { instantIn } from '../wall-clock.ts'
import type { BookingCommands } from './commands.ts'
import type { PaymentConfirmer } from './confirm.ts'
import { EVENT_CALLED_OFF, NOT_ENOUGH_TICKETS, SALES_CLOSED } from './decide.ts'
import type { BookingFact, RefundReason } from './facts.ts'
import { discountPaise, promoTermsFor } from './promo.ts'
import type { BookingQueries } from './queries.ts'
import { seatsChosen } from './seats.ts'
import { streamWaits } from './stream-waits.ts'

export type CheckoutParts = {
  /** reads an order's stream and hears of its appends (the wait for a payment's outcome) */
  ledger: Pick<LedgerPort<unknown>, 'readStream' | 'onAppend' | 'tail' | 'tailHead'>
  config: Pick<Config, 'booking' | 'timeZone' | 'jwt' | 'billing'>
  gateway: PaymentGateway
  jobs: Jobs
  booking: BookingQueries
  commands: BookingCommands
  confirm: PaymentConfirmer
  events: CatalogQueries
  /** refuses an account guessing promo codes, or starting checkouts for an event in a loop */
  throttle: Pick<Throttle, 'beforePromo' | 'promoFound' | 'perHour'>
  /** the seat maps: the seats an order names, a section's seats for the best ones */
  seating: Pick<SeatingQueries, 'named' | 'section' | 'rowsNow' | 'rowsWithRun' | 'plan' | 'seatsOfHolds'>
  /** the event's sale time and waiting room (issue 41) */
  queue: Pick<QueueQueries, 'room' | 'place'>
  /** the organizer's billing profile and the platform's fee: what an order is priced on (issue 42) */
  billing: Pick<BillingQueries, 'profile' | 'bookingFee'>
}

export type OrderRequest = {
  buyerId: string
  eventId: string
  /** the ticket type's id or its name, in any case (with seats: optional, the seats' section's) */
  ticketType?: string
  /** how many (with seats: optional, their number) */
  quantity?: number
  /** a seated order's seats by id (issue 40), all of one section */
  seats?: readonly string[]
  /** the client's address: unpaid seats are counted per address (as a keyed hash) */
  clientIp: string
  /** a promo code of the event (upper-case), issue 17 */
  promoCode?: string
  /** the buyer as their invoice names them (issue 42) */
  buyer?: { name: string; email: string }
  meta: FactMeta
  /** told when a replaced hold's provider could not be asked */
  warn: (message: string, detail: Record<string, unknown>) => void
}

/** What became of a payment: its ticket, a refund (and why), or a failure. */
export type PaymentOutcome =
  | { kind: 'issued' | 'failed' }
  | { kind: 'refunded'; reason: RefundReason; promoRefusal?: string }

export type Checkout = ReturnType<typeof checkout>

export function checkout(parts: CheckoutParts) {
  const {
    ledger,
    config,
    gateway,
    jobs,
    booking,
    commands,
    confirm,
    events,
    throttle,
    seating,
    queue,
    billing,
  } = parts
  /** the waits for payments' outcomes, one tail of the ledger for all of them */
  const waits = streamWaits(ledger)

  /** the platform's booking fee on a paid order, when one is set now, and who supplies it */
  const feeNow = async (): Promise<OrderFeeTerms | undefined> => {
    const terms = feeCharged(await billing.bookingFee(), config.billing.fee)
    return terms
      ? {
          ...terms,
          platformState: config.billing.platform.state,
          platformGstin: config.billing.platform.gstin,
        }
      : undefined
  }

  /**
   * The GST terms of an order for this event's ticket type (none without a billing profile), the
   * platform's fee, and who its invoices will name: the profile as it is now, the buyer, the event.
   */
  const taxTermsOf = async (event: EventRow, ticketType: TicketTypeRow, buyer: OrderRequest['buyer']) => {
    const [profile, fee] = await Promise.all([billing.profile(event.organizerId), feeNow()])
    const tax: OrderTaxTerms | undefined = profile
      ? {
          ratePercent: ticketType.taxRateBp / 100,
          pricesIncludeTax: event.pricesIncludeTax,
          supplierState: profile.state,
          placeOfSupply: event.state ?? profile.state,
          gstin: profile.gstin,
        }
      : undefined
    const parties: HeldParties | undefined =
      buyer && (profile || fee)
        ? {
            supplier: profile
              ? {
                  legalName: profile.legalName,
                  gstin: profile.gstin,
                  address: profile.address,
                  state: profile.state,
                  invoicePrefix: profile.invoicePrefix,
                }
              : null,
            buyer,
            event: { _id: event.id, title: event.title, date: event.date },
          }
        : undefined
    return { tax, parties, fee }
  }

  /**
   * Before the sale time nothing of the event is sold; while its waiting room is on (open, not
   * closed by a sell-out) only an admitted buyer checks out, until the admission runs out. The
   * room, for the ticket types' own sale times (typeOnSale).
   */
  const admitted = async (eventId: string, buyerId: string) => {
    const room = await queue.room(eventId)
    if (!room) return undefined
    const now = new Date().toISOString()
    // before it opens nobody is admitted: with a waiting room on, a 403 as for any buyer without
    // an admission (API.md), its reason the sale's time
    if (now < room.opensAt) throw room.waitingRoom ? forbidden(NOT_ON_SALE_YET) : conflict(NOT_ON_SALE_YET)
    if (!room.waitingRoom || room.closedAt !== null) return room
    const place = await queue.place(eventId, buyerId)
    if (!place || placeOf(room, place, now).state !== 'admitted') throw forbidden(ADMISSION_NEEDED)
    return room
  }

  /** a ticket type with a later sale time of its own is not sold before it */
  const typeOnSale = (room: Room | undefined, ticketTypeId: string) => {
    if (room && new Date().toISOString() < typeOpensAt(room, ticketTypeId))
      throw conflict(TYPE_NOT_ON_SALE_YET)
  }

  /** When booking closes: the event's start, or its sales end if earlier, both judged in TIMEZONE. */
  const salesCloseAt = (event: EventRow) => {
    const start = instantIn(event.date, event.time, config.timeZone).getTime()
    if (!event.salesEnd) return new Date(start).toISOString()
    const [date = '', time = ''] = event.salesEnd.split('T')
    const end = instantIn(date, time, config.timeZone).getTime()
    return new Date(Math.min(start, end)).toISOString()
  }

  /** Until when a ticket of this event may be cancelled with its refund. */
  const cutoffOf = (event: EventRow) => {
    const start = instantIn(event.date, event.time, config.timeZone).getTime()
    const hours = config.booking.cancelCutoffHours
    return { at: new Date(start - hours * 3_600_000).toISOString(), hours }
  }

  /** The client address as a keyed hash: holds are counted per address without storing it. */
  const clientKeys = new Map<string, string>()
  const clientKeyOf = (ip: string) => {
    let key = clientKeys.get(ip)
    if (key === undefined) {
      key = createHmac('sha256', config.jwt.secret).update(`client ${ip}`).digest('base64url').slice(0, 22)
      if (clientKeys.size >= 50_000) clientKeys.clear()
      clientKeys.set(ip, key)
    }
    return key
  }

  /** What became of this payment, once the ledger says: a ticket, a refund, or a failure. */
  const outcomeOf = async (orderId: string, paymentId: string): Promise<PaymentOutcome | null> => {
    const facts = await streamFacts<BookingFact>(ledger, streams.order(orderId))
    const about = (f: BookingFact) => 'paymentId' in f.data && f.data.paymentId === paymentId
    if (facts.some((f) => f.type === 'PaymentFailed' && about(f))) return { kind: 'failed' }
    const captured = facts.findIndex((f) => f.type === 'PaymentCaptured' && about(f))
    if (captured < 0) return null
    // This payment issued the ticket (its capture's decision): so it stays, the same answer for the
    // same report, even once the ticket is cancelled and this payment refunded for it.
    if (facts[captured + 1]?.type === 'TicketsIssued') return { kind: 'issued' }
    const refund = facts.find((f) => f.type === 'RefundRequested' && about(f))
    // A second payment for a paid order is refunded, but its payer does have the ticket.
    if (refund?.type !== 'RefundRequested' || refund.data.reason === 'duplicate payment')
      return { kind: 'issued' }
    const { reason, promoRefusal } = refund.data
    return { kind: 'refunded', reason, ...(promoRefusal ? { promoRefusal } : {}) }
  }

  /** Waits until the order is no longer waiting for this payment (read again whenever it may have grown). */
  const settled = async (orderId: string, paymentId: string) => {
    const deadline = Date.now() + config.booking.paymentWaitSeconds * 1000
    // watched before the first read, so no append after it goes unheard
    const watch = await waits.watch(streams.order(orderId))
    try {
      for (;;) {
        // cleared before each read: the read is async, and the stream may grow while it is under
        // way; then it is read again at once
        watch.clear()
        const outcome = await outcomeOf(orderId, paymentId)
        if (outcome || Date.now() > deadline) return outcome
        if (watch.grew) continue
        await watch.next(deadline - Date.now())
      }
    } finally {
      watch.stop()
    }
  }

  return {
    salesCloseAt,
    cutoffOf,
    /** the cancel cutoff of an order's event, or null when the event is gone */
    async cancelCutoff(eventId: string) {
      const event = await events.byId(eventId)
      return event ? cutoffOf(event) : null
    },

    /**
     * An order: checked, priced in integer paise (the provider is asked for exactly this), the
     * provider's order made, and the seats held. Everything is decided again under the write lock
     * by the hold; the checks before the provider is asked only spare it orders that would fail.
     */
    async place(order: OrderRequest) {
      const { buyerId } = order
      if (!order.seats && order.ticketType === undefined)
        throw invalid('Choose a ticket type.', [{ field: 'ticketType', message: 'Choose a ticket type.' }])
      if (!order.seats && order.quantity === undefined)
        throw invalid('Quantity must be a number.', [
          { field: 'quantity', message: 'Quantity must be a number.' },
        ])
      // seats named are the order's quantity: a quantity beside them says the same, or is refused
      if (order.seats && order.quantity !== undefined && order.quantity !== order.seats.length) {
        const message = `Quantity must be the number of seats chosen (${order.seats.length}), or left out.`
        throw invalid(message, [{ field: 'quantity', message }])
      }
      const quantity = order.seats?.length ?? (order.quantity as number)
      const max = config.booking.maxTicketsPerOrder
      if (quantity > max) {
        throw invalid(`You can book at most ${max} tickets at once.`, [
          { field: 'quantity', message: `You can book at most ${max} tickets at once.` },
        ])
      }
      // read together (on PostgreSQL, at once on two connections)
      const [event, typesOf] = await Promise.all([
        events.byId(order.eventId),
        events.ticketTypesOf([order.eventId]),
      ])
      if (event?.approvalStatus !== 'Approved') throw notFound('Event not found.')
      const closesAt = salesCloseAt(event)
      if (new Date().toISOString() >= closesAt) throw conflict(SALES_CLOSED)
      // said before anything about the seats chosen (the hold decides it again, under the lock)
      if (event.cancelledAt) throw conflict(EVENT_CALLED_OFF)
      const room = await admitted(event.id, buyerId)
      const types = typesOf.get(event.id) ?? []
      // a seated order's type is its seats' section's; the seats are chosen (or checked) here and
      // decided again, each one free, under the event's lock by the hold
      const plan = await seating.plan(event.id)
      // the buyer's unpaid holds of the event, which this checkout replaces (read once, for the
      // seats they name and the count below)
      const heldBefore = plan && order.seats ? await booking.heldBy(buyerId, event.id) : undefined
      const chosen = plan
        ? await seatsChosen(
            seating,
            event.id,
            plan,
            types,
            order.ticketType,
            order.seats,
            // their seats are the buyer's to name
            heldBefore ?? [],
            // holds past their deadline: the hold releases them before it decides
            (typeId) => booking.lapsedHolds(new Date().toISOString(), typeId),
          )
        : null
      if (order.seats && !chosen) throw invalid(NO_SEATMAP, [{ field: 'seats', message: NO_SEATMAP }])
      const wanted = order.ticketType?.toLowerCase()
      const ticketType =
        chosen?.ticketType ??
        types.find((t: TicketTypeRow) => t.id === order.ticketType || t.type.toLowerCase() === wanted)
      if (!ticketType) {
        throw invalid('This event has no such ticket type.', [
          { field: 'ticketType', message: 'This event has no such ticket type.' },
        ])
      }
      typeOnSale(room, ticketType.id)
      // Fail fast when it is sold out (unless lapsed holds would give seats back). The buyer's own
      // unpaid hold of this type counts as theirs: the hold replaces it, giving its seats back first
      // (a buyer who closed the checkout and books again is not told their own seats are gone).
      const lapsed = async () =>
        (await booking.lapsedHolds(new Date().toISOString(), ticketType.id)).length > 0
      const [offered, open, onSale, { tax, parties, fee }] = await Promise.all([
        booking.offeredTo(buyerId, ticketType.id),
        heldBefore ?? booking.heldBy(buyerId, event.id),
        booking.available(ticketType),
        taxTermsOf(event, ticketType, order.buyer),
      ])
      const ownHeld = open.reduce(
        (seats, o) => seats + (o.ticketTypeId === ticketType.id ? o.quantity : 0),
        0,
      )
      // Lapsed holds are looked for after the first read and the seats on sale read again after
      // them: a hold released meanwhile (its expire job) is counted by one read or the other.
      if (
        onSale + offered + ownHeld < quantity &&
        !(await lapsed()) &&
        (await booking.available(ticketType)) + offered + ownHeld < quantity
      ) {
        // seats named and free on the map, yet not on sale to this buyer: those that came back are
        // the waiting list's (issue 17), each named as a seat not free is
        const seats = chosen?.seats
        if (seats && seats.length > 0) {
          const kept = await booking.keptForWaitlist(ticketType.id)
          const message = kept ? seatsKeptForWaitlist(seats[0]?.section ?? '') : NOT_ENOUGH_TICKETS
          throw seatsConflict(
            message,
            seats.map((seat) => seat.id),
          )
        }
        throw conflict(NOT_ENOUGH_TICKETS)
      }
      // A promo code is checked here to price the provider's order, and again by the hold.
      let discount = 0
      if (order.promoCode) {
        const terms = await promoTermsFor(
          throttle,
          booking,
          buyerId,
          event.id,
          order.promoCode,
          ticketType.id,
        )
        discount = discountPaise(terms, ticketType.pricePaise, quantity)
      }
      // Each checkout from here on is an order at the provider (and a hold that replaces the last):
      // counted per account and event before it is made, so many sent at once cannot slip past.
      await throttle.perHour('checkout', `${buyerId}/${event.id}`)
      const orderId = newId()
      // the price less any discount, with GST added when prices do not include it, and the fee
      const priced = {
        unitPricePaise: ticketType.pricePaise,
        quantity,
        discountPaise: discount,
        ...(tax ? { tax } : {}),
        ...(fee ? { fee } : {}),
      }
      const money = orderMoney(priced)
      const amountPaise = money.total
      const free = amountPaise === 0
      const providerOrder = free
        ? { id: `free_${orderId}` }
        : await gateway.createOrder({
            amount: amountPaise,
            currency: 'INR',
            receipt: orderId,
            notes: { eventId: event.id, ticketTypeId: ticketType.id },
          })
      // A new checkout replaces the buyer's unpaid one for this event; one paid in the meantime
      // (its confirmation not yet done) becomes its ticket first, and is not replaced.
      await Promise.all(
        open
          .filter((replaced) => replaced.provider !== 'free')
          .map((replaced) =>
            confirm(replaced.id, replaced).catch((error) =>
              order.warn('could not ask the provider about a replaced hold', {
                err: error,
                orderId: replaced.id,
              }),
            ),
          ),
      )
      const heldUntil = new Date(Date.now() + config.booking.holdMinutes * 60_000).toISOString()
      const provider = free ? ('free' as const) : gateway.provider
      // seats the buyer named are checked here and again under the lock; the best ones for a
      // quantity are chosen under the lock (buyers asking at once never pick the same ones)
      const named = chosen?.seats ?? undefined
      const { replaced, facts } = await commands.hold(
        {
          orderId,
          buyerId,
          eventId: event.id,
          organizerId: event.organizerId,
          ticketTypeId: ticketType.id,
          ticketType: ticketType.type,
          quantity,
          unitPricePaise: ticketType.pricePaise,
          amountPaise,
          provider,
          providerOrderId: providerOrder.id,
          heldUntil,
          clientKey: clientKeyOf(order.clientIp),
          ...(order.promoCode ? { promoCode: order.promoCode, discountPaise: discount } : {}),
          ...(named ? { seats: named } : {}),
          ...(tax ? { tax } : {}),
          ...(fee && money.fee.total > 0 ? { fee } : {}),
          ...(parties && (tax || money.fee.total > 0) ? { invoicing: parties } : {}),
        },
        ticketType,
        order.meta,
        {
          salesCloseAt: closesAt,
          maxHeldFromAddress: config.booking.maxHeldSeatsPerAddress,
          maxTicketsPerAccount: config.booking.maxTicketsPerAccount,
        },
        chosen && !named ? { stage: plan?.stage ?? null } : undefined,
      )
      const held = facts.find((f) => f.type === 'TicketsHeld')
      const seats = held?.type === 'TicketsHeld' ? held.data.seats : undefined
      return {
        orderId,
        providerOrderId: providerOrder.id,
        amountPaise,
        provider,
        heldUntil,
        replaced,
        money,
        ...(seats ? { seats } : {}),
      }
    },

    /**
     * A payment the buyer reports: its confirmation job (done here and now when the queue cannot
     * take it), then the wait for what the ledger makes of it; null if it is still being issued.
     */
    async reported(orderId: string, paymentId: string): Promise<PaymentOutcome | null> {
      const jobId = jobIds.confirm(orderId, paymentId)
      await enqueueOrDoNow(jobs, job('payments.confirm', { orderId }, { jobId }), () => confirm(orderId))
      return settled(orderId, paymentId)
    },
  }
}
