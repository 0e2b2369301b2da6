// The catalogue's commands: every change to an event's stream (its submission, review, edits and
// cancellation, its door staff, its promo codes) is decided here against the stream (decide.ts) and
// appended in one transaction. Other areas' routes (the door's staff, the promo codes) ask through
// these, so only the catalogue decides about an event's stream.
import type { BookingQueries } from '../booking/queries.ts'
import { type DecisionOptions, decisionLocks, type LedgerPort, type StepQueries, wait } from '../db/store.ts'
import { newId, streams } from '../ids.ts'
import { decideIn } from '../ledger/decider.ts'
import type { FactMeta, StoredFact } from '../ledger/ledger.ts'
import type { SeatingQueries } from '../seating/queries.ts'
import {
  type EventCommand,
  type EventDetails,
  eventDecider,
  type SeatPlan,
  type TicketTypeChange,
} from './decide.ts'
import type { CatalogFact, EventSubmitted, PromoCodeCreated } from './facts.ts'

/** what an edit reads inside its transaction: the seats each ticket type has sold or held */
export type CatalogReads = {
  booking: Pick<StepQueries<BookingQueries>, 'seatsTaken'>
  /** and, for a seat map, the seats held or sold */
  seating: Pick<StepQueries<SeatingQueries>, 'takenIds'>
}
export type CatalogLedger = Pick<LedgerPort<CatalogReads>, 'transaction'>

/** now, as the decisions judge an event's start against it */
const now = () => new Date().toISOString()

export function catalogCommands(ledger: CatalogLedger, timeZone: string) {
  /** one command on one event's stream, decided and appended in a transaction of its own */
  const decide = (
    eventId: string,
    command: EventCommand,
    meta: FactMeta,
    expectedVersion?: number,
    options?: DecisionOptions,
  ): Promise<StoredFact<CatalogFact>[]> =>
    ledger.transaction(function* (tx) {
      const handled = yield* decideIn(tx, eventDecider, {
        stream: streams.event(eventId),
        command,
        meta,
        expectedVersion,
      })
      return handled.facts
    }, options)

  return {
    /** a new event, pending review (its start must be after now) */
    submit: (event: EventSubmitted['data'], meta: FactMeta) =>
      decide(event.eventId, { type: 'Submit', event, now: now(), timeZone }, meta),

    /**
     * The organizer's change to an event, on the version it saw (seen; undefined: any). The seats
     * sold or held of its ticket types (ticketTypeIds) are read under the write lock: a capacity may
     * not go below them.
     */
    edit(
      change: {
        eventId: string
        by: string
        details: Partial<EventDetails>
        ticketTypes?: TicketTypeChange[]
        ticketTypeIds: readonly string[]
      },
      meta: FactMeta,
      seen?: number,
    ) {
      const { eventId, by, details, ticketTypes, ticketTypeIds } = change
      return ledger.transaction(
        function* (tx) {
          const taken: Record<string, number> = {}
          for (const id of ticketTypeIds) taken[id] = yield* wait(tx.reads.booking.seatsTaken(id))
          const handled = yield* decideIn(tx, eventDecider, {
            stream: streams.event(eventId),
            expectedVersion: seen,
            command: {
              type: 'Edit',
              eventId,
              by,
              details,
              ...(ticketTypes ? { ticketTypes } : {}),
              taken,
              newId,
              now: now(),
              timeZone,
            },
            meta,
          })
          return handled.facts
          // the seats taken are read under the event's lock: no hold takes one before it commits
        },
        { lock: decisionLocks.event(eventId) },
      )
    },

    /**
     * The organizer's seat map (issue 40), placed and checked by seating/plan.ts: the seats held or
     * sold, and each section's type's tickets sold or held, are read under the event's lock, so no
     * hold takes a seat the plan moves, nor a type's ticket by count, before it commits.
     */
    placeSeatMap: (
      change: { eventId: string; by: string; plan: SeatPlan; laidOut?: ReadonlySet<string> },
      meta: FactMeta,
    ) =>
      ledger.transaction(
        function* (tx) {
          const taken = yield* wait(tx.reads.seating.takenIds(change.eventId))
          const takenOfTypes: Record<string, number> = {}
          for (const { ticketTypeId } of change.plan.sections)
            takenOfTypes[ticketTypeId] ??= yield* wait(tx.reads.booking.seatsTaken(ticketTypeId))
          const handled = yield* decideIn(tx, eventDecider, {
            stream: streams.event(change.eventId),
            command: { type: 'PlaceSeatMap', ...change, taken, takenOfTypes, now: now(), timeZone },
            meta,
          })
          return handled.facts
        },
        { lock: decisionLocks.event(change.eventId) },
      ),

    /** the event called off by its organizer or an admin (before it starts) */
    cancel: (cancel: { eventId: string; by: string; asAdmin: boolean; reason: string }, meta: FactMeta) =>
      // a hold or a payment deciding now is committed before it (and so cancelled after it)
      decide(cancel.eventId, { type: 'Cancel', ...cancel, now: now(), timeZone }, meta, undefined, {
        lock: decisionLocks.event(cancel.eventId),
      }),

    /** an admin's decision, on the version the admin saw (seen; undefined: any) */
    review: (
      review: { eventId: string; decision: 'Approved' | 'Rejected'; by: string; reason?: string },
      meta: FactMeta,
      seen?: number,
    ) => decide(review.eventId, { type: 'Review', ...review }, meta, seen),

    /** an e-mail invited to the event's door staff (sent again while pending) */
    inviteDoorStaff: (invite: { eventId: string; email: string; by: string }, meta: FactMeta) =>
      decide(invite.eventId, { type: 'InviteDoorStaff', ...invite, invitationId: newId() }, meta),

    /** the organizer withdraws an invitation or removes its member */
    removeDoorStaff: (remove: { eventId: string; invitationId: string; by: string }, meta: FactMeta) =>
      decide(remove.eventId, { type: 'RemoveDoorStaff', ...remove }, meta),

    /** the account with this e-mail (and id) accepts its invitation */
    acceptDoorStaff: (
      accept: { eventId: string; invitationId: string; accountId: string; email: string },
      meta: FactMeta,
    ) => decide(accept.eventId, { type: 'AcceptDoorStaff', ...accept }, meta),

    /** the account with this e-mail (and id) declines its invitation, or leaves the door staff */
    leaveDoorStaff: (
      leave: { eventId: string; invitationId: string; accountId: string; email: string },
      meta: FactMeta,
    ) => decide(leave.eventId, { type: 'LeaveDoorStaff', ...leave }, meta),

    /** a new promo code of the event (upper-case, not taken) */
    createPromoCode: (promo: PromoCodeCreated['data'], meta: FactMeta) =>
      decide(promo.eventId, { type: 'CreatePromoCode', promo }, meta),

    /** a promo code disabled (disabled already: nothing happens) */
    disablePromoCode: (disable: { eventId: string; code: string; by: string }, meta: FactMeta) =>
      decide(disable.eventId, { type: 'DisablePromoCode', ...disable }, meta),
  }
}

export type CatalogCommands = ReturnType<typeof catalogCommands>
