// Booking (SPEC §2, §4, §7): the event's summary, quantity and ticket type with live availability,
// the per-order limit and the chosen type's live count (a quantity over either is refused here,
// with one message), and the booking machine driving order → checkout (the local gateway's dialog
// or Razorpay's) → confirmation page. This screen supplies the machine's calls and effects. The
// event is the event page's query: watching its room, availability pushes apply to it as they are
// (live/follow.ts). The form is offered only when the sale allows it (sale-admission.tsx, issue 41).
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router'
import { useMachine } from '@xstate/react'
import { type FormEvent, useEffect, useId, useMemo, useRef, useState } from 'react'
import { fromPromise } from 'xstate'
import type { EventView, TicketTypeView } from '../../../../contracts/catalog.ts'
import { taxRatesQuery } from '../../api/billing.ts'
import { confirmPayment, createOrder, payLocally } from '../../api/booking.ts'
import { eventQuery, keys, myWaitlistQuery, promoPriceQuery } from '../../api/queries.ts'
import { refusedSeats, type SeatMapView, seatMapQuery } from '../../api/seating.ts'
import type { WaitlistEntryView } from '../../api/waitlist.ts'
import { useEventRoom } from '../../live/use-event-room.ts'
import { useLiveConnected } from '../../live/use-live.ts'
import { useSeatMapRoom } from '../../live/use-seat-room.ts'
import { bookingMachine } from '../../machines/booking.ts'
import { useSession } from '../../session/use-session.ts'
import { Fetched } from '../../ui/fetched.tsx'
import { focusLost } from '../../ui/focus.ts'
import { formatDate, formatEventTime, formatInstantIn, formatPrice } from '../../ui/format.ts'
import { LiveCountsNote } from '../../ui/live-status.tsx'
import { Loading } from '../../ui/loading.tsx'
import { typeOnSaleText } from '../../ui/sale-texts.ts'
import { seatLine } from '../../ui/seat-label.ts'
import { notify } from '../../ui/toasts.ts'
import { useEventZone, useSite } from '../../ui/use-site.ts'
import { CheckoutDialog } from './checkout-dialog.tsx'
import { breakdownAddsUp } from './order-breakdown.ts'
import { OrderBreakdown } from './order-breakdown-list.tsx'
import { type Payer, razorpayCheckout } from './razorpay-checkout.ts'
import { SaleAdmission, useTypeRefusal } from './sale-admission.tsx'
import './booking.css'

const bookingRoute = getRouteApi('/_signed-in/booking/$id')

export function BookingScreen() {
  const { id } = bookingRoute.useParams()
  const search = bookingRoute.useSearch()
  const event = useQuery(eventQuery(id))
  // seats a waiting list offers this person are theirs to book (issue 17)
  const waitlist = useQuery(myWaitlistQuery())
  const live = useLiveConnected()
  useEventRoom(id)

  return (
    <Fetched
      query={event}
      loading={<Loading message="Loading event..." />}
      failed="Error fetching event details."
    >
      {(shown) => (
        <section className="page booking-page" data-live={live ? 'connected' : 'offline'}>
          <EventSummary event={shown} />
          <SaleAdmission eventId={shown._id} offered={isOffered(shown._id, waitlist.data)}>
            {search.seats ? (
              <BookingForm event={withOffers(shown, waitlist.data)} seats={search.seats} />
            ) : (
              <BookingForm
                event={withOffers(shown, waitlist.data)}
                ticketType={search.ticketType}
                quantity={search.quantity}
              />
            )}
          </SaleAdmission>
        </section>
      )}
    </Fetched>
  )
}

const isOffered = (eventId: string, entries: WaitlistEntryView[] | undefined) =>
  (entries ?? []).some((e) => e.status === 'offered' && e.eventId === eventId)

/** the event as this person may book it: each type's live count plus the seats offered to them */
function withOffers(event: EventView, entries: WaitlistEntryView[] | undefined): EventView {
  const offered = (entries ?? []).filter((e) => e.status === 'offered' && e.eventId === event._id)
  if (offered.length === 0) return event
  return {
    ...event,
    ticketTypes: event.ticketTypes.map((type) => {
      const offer = offered.find((e) => e.ticketTypeId === type._id)
      return offer
        ? { ...type, available: type.available + offer.quantity, quantity: type.quantity + offer.quantity }
        : type
    }),
  }
}

function EventSummary({ event }: { event: EventView }) {
  const zone = useEventZone()
  const image = event.images[0]?.url
  return (
    <article className="card event-summary">
      {image && <img src={image} alt={event.title} />}
      <div>
        <h1>{event.title}</h1>
        {event.cancelledAt && (
          <p className="form-error" role="status">
            This event has been cancelled.
          </p>
        )}
        <p>{event.description}</p>
        <dl className="facts">
          <dt>Date:</dt>
          <dd>{formatDate(event.date)}</dd>
          <dt>Time:</dt>
          <dd>{formatEventTime(event.date, event.time, zone)}</dd>
          <dt>Location:</dt>
          <dd>{event.location}</dd>
        </dl>
      </div>
    </article>
  )
}

const optionText = (type: TicketTypeView) =>
  `${type.type} - ${formatPrice(type.price)} (${type.available > 0 ? `${type.available} available` : 'Sold out'})`

/**
 * Why this quantity cannot be booked, before asking the server: the tighter of the per-order
 * limit and the type's live count, in one message (null: it can be asked for). The server
 * decides again; a seat taken meanwhile still comes back as its own message.
 */
export function quantityRefusal(
  quantity: number,
  type: TicketTypeView,
  maxPerOrder: number | null,
): string | null {
  if (!Number.isInteger(quantity) || quantity < 1) return null
  const seatsBind = maxPerOrder === null || type.available < maxPerOrder
  if (seatsBind && quantity > type.available) {
    return type.available === 0
      ? `${type.type} is sold out.`
      : `Only ${type.available} left for ${type.type}.`
  }
  if (maxPerOrder !== null && quantity > maxPerOrder)
    return `You can book at most ${maxPerOrder} tickets at once.`
  return null
}

/** the seats chosen on the map, each with its section's type and price (null until the map is read) */
function chosenSeats(map: SeatMapView | null | undefined, ids: readonly string[]) {
  if (!map) return null
  const wanted = new Set(ids)
  const found: { id: string; line: string; ticketType: string; ticketTypeId: string; price: number }[] = []
  for (const section of map.sections)
    for (const row of section.rows)
      for (const seat of row.seats)
        if (wanted.has(seat.id))
          found.push({
            id: seat.id,
            line: seatLine({ section: section.name, row: row.label, number: seat.number }),
            ticketType: section.ticketType,
            ticketTypeId: section.ticketTypeId,
            price: section.price,
          })
  return found
}

/**
 * The booking form. Opened with seats chosen on the event's seat map (issue 40) it books those: the
 * order names the seats, their section is the type; else the buyer picks a type and a number (on a
 * seated type, the server finds the best seats), optionally as the seat map's Best available asked.
 */
function BookingForm({
  event,
  seats,
  ticketType: askedType,
  quantity: askedQuantity,
}: {
  event: EventView
  seats?: string[]
  ticketType?: string | undefined
  quantity?: number | undefined
}) {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const seated = seats !== undefined && seats.length > 0
  const seatMap = useQuery({ ...seatMapQuery(event._id), enabled: seated })
  const chosenSeatList = useMemo(
    () => (seated ? chosenSeats(seatMap.data, seats) : null),
    [seated, seatMap.data, seats],
  )
  // seats the server said were taken when the order was asked for
  const [refusedSeatIds, setRefusedSeatIds] = useState<ReadonlySet<string>>(new Set())
  // and those taken by someone else while the page is open (the map followed live), until this page
  // asks for its own order (its own hold then takes them)
  // (each by the seats asked for: the page may be given others without being made again)
  const choiceKey = seats?.join(' ') ?? ''
  const [orderedFor, setOrderedFor] = useState<string | null>(null)
  const choiceNow = useRef(choiceKey)
  choiceNow.current = choiceKey
  const freeAtFirst = useRef<{ key: string; free: ReadonlySet<string> } | null>(null)
  if (seatMap.data && seats && freeAtFirst.current?.key !== choiceKey)
    freeAtFirst.current = { key: choiceKey, free: freeOf(seatMap.data, seats, new Set(seats)) }
  const lostLive = useMemo(() => {
    const first = freeAtFirst.current
    if (orderedFor === choiceKey || !seatMap.data || !seats || first?.key !== choiceKey)
      return new Set<string>()
    const free = freeOf(seatMap.data, seats, first.free)
    return new Set([...first.free].filter((id) => !free.has(id)))
  }, [orderedFor, choiceKey, seatMap.data, seats])
  const takenSeats = useMemo(
    () => (lostLive.size === 0 ? refusedSeatIds : new Set([...refusedSeatIds, ...lostLive])),
    [refusedSeatIds, lostLive],
  )
  const { user } = useSession()
  const payer: Payer = useMemo(
    () => ({ name: user?.username ?? '', email: user?.email ?? '', contact: user?.phone ?? null }),
    [user?.username, user?.email, user?.phone],
  )
  const machine = useMemo(
    () =>
      bookingMachine.provide({
        actors: {
          createOrder: fromPromise(async ({ input }) => {
            setOrderedFor(choiceNow.current)
            const order = await createOrder(input).catch((error: unknown) => {
              // seats taken meanwhile: marked, and every map of the event read again
              const taken = refusedSeats(error)
              if (taken.length > 0) {
                setRefusedSeatIds(new Set(taken))
                void queryClient.invalidateQueries({ queryKey: keys.seatMap(input.eventId) })
              }
              throw error
            })
            // A new checkout for the same event released the buyer's earlier unpaid one.
            if (order.message) notify.info(order.message)
            return order
          }),
          payLocally: fromPromise(({ input }) => payLocally(input.orderId, input.outcome)),
          providerCheckout: razorpayCheckout(payer),
          confirmPayment: fromPromise(({ input }) => confirmPayment(input)),
        },
        actions: {
          notifySuccess: (_, { message }) => notify.success(message),
          showConfirmation: (_, { eventId, ticketId }) => {
            void navigate(
              ticketId
                ? { to: '/booking/$id/confirmed/$ticketId', params: { id: eventId, ticketId } }
                : { to: '/' },
            )
          },
        },
      }),
    [navigate, payer, queryClient],
  )
  const [snapshot, send] = useMachine(machine, { input: { eventTitle: event.title } })

  const firstOnSale = event.ticketTypes.find((type) => type.available > 0) ?? event.ticketTypes[0]
  const asked = event.ticketTypes.find((type) => type.type === askedType || type._id === askedType)
  const [ticketType, setTicketType] = useState((asked ?? firstOnSale)?.type ?? '')
  const [quantity, setQuantity] = useState(String(askedQuantity ?? 1))
  const seatedType = chosenSeatList?.[0]
  const chosen = seated
    ? event.ticketTypes.find(
        (type) => type._id === seatedType?.ticketTypeId || type.type === seatedType?.ticketType,
      )
    : event.ticketTypes.find((type) => type.type === ticketType)
  const count = seated ? (chosenSeatList?.length ?? 0) : Number(quantity)
  const maxPerOrder = useSite()?.maxTicketsPerOrder ?? null
  const zone = useEventZone()
  // a type on sale later than its event is not booked before its time
  const { refusal: notYet, opensAt: typeOpensAt } = useTypeRefusal(event._id, chosen?._id)
  // chosen seats were free when chosen: the server says whether they still are
  const refusal = notYet ?? (chosen && !seated ? quantityRefusal(count, chosen, maxPerOrder) : null)
  const seatsTotal = chosenSeatList?.reduce((sum, seat) => sum + seat.price, 0) ?? 0
  // what the checkout adds to the price shown (the platform's fee, GST on prices without it)
  const rates = useQuery(taxRatesQuery())
  const added = chosen
    ? addedAtCheckout(chosen.taxRate > 0 && !event.pricesIncludeTax, Boolean(rates.data?.fee))
    : null

  // A promo code (issue 17): checked once applied, again whenever the type or quantity changes, and
  // sent with the order (the server decides again when it holds the seats).
  const [promoInput, setPromoInput] = useState('')
  const [promoCode, setPromoCode] = useState<string | null>(null)
  const countable = chosen !== undefined && refusal === null && Number.isInteger(count) && count >= 1
  const promo = useQuery({
    ...promoPriceQuery(event._id, promoCode ?? '', chosen?.type ?? '', count),
    enabled: promoCode !== null && countable,
  })
  const promoError = promo.error ? promo.error.message : null

  const busy = snapshot.hasTag('busy')
  const { error, detail, notice, order } = snapshot.context
  const dialogOpen = snapshot.matches({ checkout: 'dialog' }) || snapshot.matches({ checkout: 'paying' })

  const submit = (form: FormEvent<HTMLFormElement>) => {
    form.preventDefault()
    if (!chosen || busy || refusal) return
    if (seated && (!chosenSeatList || chosenSeatList.length === 0)) return
    send({
      type: 'BOOK',
      request: {
        eventId: event._id,
        ticketType: chosen.type,
        quantity: count,
        amount: promo.data?.amount ?? (seated ? seatsTotal : chosen.price * count),
        ...(promoCode ? { promoCode } : {}),
        ...(seated && chosenSeatList ? { seats: chosenSeatList.map((seat) => seat.id) } : {}),
      },
      now: Date.now(),
    })
  }

  return (
    <form className="card form booking-form" onSubmit={submit} aria-busy={busy}>
      {seated ? (
        <ChosenSeats
          eventId={event._id}
          seats={chosenSeatList}
          failed={seatMap.isError}
          taken={takenSeats}
          lostLive={lostLive.size}
        />
      ) : (
        <>
          <div className="field">
            <label htmlFor="booking-quantity">Quantity</label>
            <input
              id="booking-quantity"
              name="quantity"
              type="number"
              min={1}
              step={1}
              required
              value={quantity}
              disabled={busy}
              aria-describedby="booking-limits"
              aria-invalid={refusal !== null}
              onChange={(change) => {
                setQuantity(change.target.value)
                send({ type: 'EDIT' })
              }}
            />
          </div>
          <div className="field">
            <label htmlFor="booking-ticket-type">Ticket Type</label>
            <select
              id="booking-ticket-type"
              name="ticketType"
              value={ticketType}
              disabled={busy}
              required
              onChange={(change) => {
                setTicketType(change.target.value)
                send({ type: 'EDIT' })
              }}
            >
              {event.ticketTypes.map((type) => (
                <option key={type._id} value={type.type}>
                  {optionText(type)}
                </option>
              ))}
            </select>
          </div>
          <LiveCountsNote />
          {chosen && (
            <p className="booking-limits" id="booking-limits">
              {maxPerOrder !== null && <span>At most {maxPerOrder} tickets per order. </span>}
              <span className="booking-available">{`${chosen.available} available for ${chosen.type}.`}</span>
            </p>
          )}
        </>
      )}
      {added && <p className="form-hint booking-added">{added}</p>}
      {chosen && (
        <p className="booking-price" aria-live="polite">
          Price: {formatPrice(chosen.price)}
          {count > 1 && !promo.data && (
            <span className="booking-total">
              {' '}
              · <span className="nowrap">Total: {formatPrice(chosen.price * count)}</span>
            </span>
          )}
          {promo.data && (
            <span className="booking-total booking-discounted">
              {' '}
              · Promo code {promo.data.code}:{' '}
              <span className="nowrap">−{formatPrice(promo.data.discount)}</span> ·{' '}
              <span className="nowrap">Total: {formatPrice(promo.data.amount)}</span>
            </span>
          )}
        </p>
      )}
      <PromoField
        value={promoInput}
        applied={promoCode}
        checking={promo.isFetching}
        error={promoError}
        disabled={busy}
        onChange={(text) => {
          setPromoInput(text)
          send({ type: 'EDIT' })
        }}
        onApply={() => setPromoCode(promoInput.trim() ? promoInput.trim().toUpperCase() : null)}
        onRemove={() => {
          setPromoCode(null)
          setPromoInput('')
        }}
      />
      {refusal ? (
        <>
          <p className="form-error booking-error" role="alert">
            {refusal}
          </p>
          {chosen && typeOpensAt && (
            <p className="form-hint booking-type-opens">
              {typeOnSaleText(chosen.type, formatInstantIn(typeOpensAt, zone))}
            </p>
          )}
        </>
      ) : (
        error && (
          <div className="form-error booking-error" role="alert">
            <p>{error}</p>
            {detail && <p className="form-error-detail">{detail}</p>}
          </div>
        )
      )}
      {notice && (
        <p className="form-hint" role="status">
          {notice}
        </p>
      )}
      {order?.reply.seats && order.reply.seats.length > 0 && (
        <div className="booking-seats" role="status">
          <p>Your seats:</p>
          <ul className="seat-lines">
            {order.reply.seats.map((seat) => (
              <li key={seat.id}>{seatLine(seat)}</li>
            ))}
          </ul>
        </div>
      )}
      {breakdownAddsUp(order?.reply.breakdown) && snapshot.matches({ checkout: 'provider' }) && (
        <OrderBreakdown breakdown={order.reply.breakdown} />
      )}
      <button
        type="submit"
        disabled={
          busy ||
          !chosen ||
          refusal !== null ||
          (seated && (chosenSeatList?.length ?? 0) === 0) ||
          (chosenSeatList?.some((seat) => takenSeats.has(seat.id)) ?? false)
        }
      >
        {busy ? 'Processing Payment...' : 'Confirm Booking'}
      </button>
      {dialogOpen && order && (
        <CheckoutDialog
          eventTitle={event.title}
          amountPaise={order.reply.amount}
          breakdown={order.reply.breakdown}
          paying={snapshot.matches({ checkout: 'paying' })}
          onPay={() => send({ type: 'PAY', outcome: 'success' })}
          onFail={() => send({ type: 'PAY', outcome: 'failure' })}
          onClose={() => send({ type: 'CLOSE' })}
        />
      )}
    </form>
  )
}

/**
 * The seats chosen on the event's seat map (issue 40), those taken marked: by someone else while the
 * page is open (its map's room is watched, as the picker's), or as the server said when asked.
 */
function ChosenSeats(props: {
  eventId: string
  seats: ReturnType<typeof chosenSeats>
  failed: boolean
  taken: ReadonlySet<string>
  /** how many were taken by someone else meanwhile */
  lostLive: number
}) {
  const { eventId, seats, failed, taken, lostLive } = props
  useSeatMapRoom(eventId)
  const back = (
    <Link to="/event/$id" params={{ id: eventId }}>
      Choose other seats
    </Link>
  )
  if (seats === null)
    return failed ? (
      <p className="form-error" role="alert">
        Your seats could not be read. {back}
      </p>
    ) : (
      <p className="form-hint">Loading your seats…</p>
    )
  if (seats.length === 0)
    return (
      <p className="form-error" role="alert">
        The seats you chose are no longer on the seat map. {back}
      </p>
    )
  return (
    <div className="field booking-seats">
      <p id="booking-seats-heading">{seats.length === 1 ? 'Your seat' : `Your ${seats.length} seats`}</p>
      <ul className="seat-lines" aria-labelledby="booking-seats-heading">
        {seats.map((seat) => (
          <li key={seat.id}>
            {seat.line} · {formatPrice(seat.price)}
            {taken.has(seat.id) && <strong> (taken)</strong>}
          </li>
        ))}
      </ul>
      {lostLive > 0 && (
        <p className="form-error" role="alert">
          {lostLive === 1 ? bookingSeatTexts.taken : bookingSeatTexts.takenSeats(lostLive)}
        </p>
      )}
      <p>{back}</p>
    </div>
  )
}

export const bookingSeatTexts = {
  taken: 'A seat you chose has just been taken by someone else.',
  takenSeats: (count: number) => `${count} seats you chose have just been taken by someone else.`,
} as const

/** which of these seats are free on the map now, of those asked about */
function freeOf(map: SeatMapView, ids: readonly string[], of: ReadonlySet<string>): Set<string> {
  const wanted = new Set(ids.filter((id) => of.has(id)))
  const free = new Set<string>()
  for (const section of map.sections)
    for (const row of section.rows)
      for (const seat of row.seats) if (wanted.has(seat.id) && seat.status === 'free') free.add(seat.id)
  return free
}

/** The promo code field: a code applied, or the reason it does not apply. */
function PromoField(props: {
  value: string
  applied: string | null
  checking: boolean
  error: string | null
  disabled: boolean
  onChange(text: string): void
  onApply(): void
  onRemove(): void
}) {
  const id = useId()
  const errorId = useId()
  // Apply turns the field off and becomes Remove, and Remove turns it on again: the focus each took
  // goes to the other, not lost on the page's body
  const field = useRef<HTMLInputElement>(null)
  const remove = useRef<HTMLButtonElement>(null)
  const applied = props.applied !== null
  useEffect(() => {
    // (a field turned off may still be the page's active element for a moment)
    const here = document.activeElement
    if (focusLost() || here === field.current || here === remove.current)
      (applied ? remove.current : field.current)?.focus()
  }, [applied])
  return (
    <div className="field booking-promo">
      <label htmlFor={id}>Promo code</label>
      <div className="booking-promo-row">
        <input
          ref={field}
          id={id}
          name="promoCode"
          value={props.value}
          disabled={props.disabled || props.applied !== null}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          aria-invalid={props.error !== null}
          aria-describedby={props.error ? errorId : undefined}
          onChange={(change) => props.onChange(change.target.value)}
          onKeyDown={(key) => {
            if (key.key === 'Enter') {
              key.preventDefault()
              props.onApply()
            }
          }}
        />
        {props.applied === null ? (
          <button
            type="button"
            className="button-secondary"
            onClick={props.onApply}
            disabled={props.disabled}
          >
            Apply
          </button>
        ) : (
          <button
            ref={remove}
            type="button"
            className="button-secondary"
            onClick={props.onRemove}
            disabled={props.disabled}
          >
            Remove
          </button>
        )}
      </div>
      {props.checking && <p className="form-hint">Checking the code…</p>}
      {props.error && (
        <p id={errorId} className="form-error" role="alert">
          {props.error}
        </p>
      )}
    </div>
  )
}

/** what the checkout adds to the prices shown here, said before the buyer confirms; null: nothing */
export function addedAtCheckout(gstOnTop: boolean, fee: boolean): string | null {
  if (gstOnTop && fee)
    return 'GST, where the organizer charges it, and a booking fee are added at checkout: each is shown before you pay.'
  if (gstOnTop)
    return 'GST, where the organizer charges it, is added at checkout: it is shown before you pay.'
  if (fee) return 'A booking fee is added at checkout: it is shown before you pay.'
  return null
}
