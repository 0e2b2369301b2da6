// The door's calls (issue 16, door-design.md): a ticket's passes, scans, the manifest, the check-in
// summary and the door staff. Who may call them is decided here, on the server, for each event: its
// organizer and the admins may do everything; its door staff may scan (scans, manifest, summary)
// and nothing else; anyone else is refused.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { SignedInAccount } from '../../contracts/accounts.ts'
import { TicketParams } from '../../contracts/booking.ts'
import {
  AddDoorStaffBody,
  CheckinParams,
  CheckinSummary,
  DoorStaffList,
  DoorStaffMember,
  DoorStaffParams,
  Manifest,
  ScanReplyList,
  ScansBody,
  TicketPassList,
} from '../../contracts/checkin.ts'
import { MessageReply } from '../../contracts/common.ts'
import type { AccountQueries } from '../accounts/queries.ts'
import { NO_SUCH_RECIPIENT, TICKET_NOT_FOUND } from '../booking/decide.ts'
import { type BookingQueries, mayReadTicket } from '../booking/queries.ts'
import { EVENT_NOT_FOUND, eventDecider } from '../catalog/decide.ts'
import type { CatalogQueries, EventRow } from '../catalog/queries.ts'
import type { LedgerPort } from '../db/store.ts'
import { forbidden, notFound } from '../errors.ts'
import { callerOf } from '../http/access.ts'
import { replies, type ValibotTypeProvider } from '../http/valibot.ts'
import { streams } from '../ids.ts'
import { handleCommand } from '../ledger/decider.ts'
import type { CheckinQueries } from './queries.ts'
import type { CheckinScans } from './scans.ts'
import type { CheckinViews } from './views.ts'

export const CHECKIN_REFUSED = "You do not have access to this event's check-in."
export const DOOR_STAFF_REFUSED = "Only the event's organizer can see and change its door staff."

export type CheckinRoutesOptions = {
  ledger: Pick<LedgerPort<unknown>, 'transaction'>
  checkin: CheckinQueries
  scans: CheckinScans
  views: CheckinViews
  events: Pick<CatalogQueries, 'byId'>
  booking: Pick<BookingQueries, 'byId'>
  accounts: Pick<AccountQueries, 'byEmail'>
}

/** what a caller may do at an event's door */
type Standing = 'manage' | 'scan' | null

export async function checkinRoutes(fastify: FastifyInstance, options: CheckinRoutesOptions) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>()
  const { ledger, checkin, scans, views, events, booking, accounts } = options

  const standingAt = async (event: EventRow, caller: SignedInAccount): Promise<Standing> => {
    if (caller.role === 'admin' || event.organizerId === caller.id) return 'manage'
    return (await checkin.isDoorStaff(event.id, caller.id)) ? 'scan' : null
  }

  /**
   * The event, when the caller may do `need` at its door. An event that does not exist is 404; so is
   * one not yet public to a caller with no part in it (nobody learns of pending events by asking).
   */
  const eventFor = async (request: FastifyRequest, eventId: string, need: 'scan' | 'manage') => {
    const caller = callerOf(request)
    const event = await events.byId(eventId)
    if (!event) throw notFound(EVENT_NOT_FOUND)
    const standing = await standingAt(event, caller)
    if (standing === null) {
      if (event.approvalStatus !== 'Approved') throw notFound(EVENT_NOT_FOUND)
      throw forbidden(CHECKIN_REFUSED)
    }
    if (need === 'manage' && standing !== 'manage') throw forbidden(DOOR_STAFF_REFUSED)
    return { event, caller }
  }

  app.get(
    '/ticket/:ticketId/passes',
    {
      config: { access: 'signed-in' },
      schema: { params: TicketParams, response: replies({ 200: TicketPassList }) },
    },
    async (request) => {
      const caller = callerOf(request)
      const order = await booking.byId(request.params.ticketId)
      // as GET /ticket/getTicketbyId
      if (!order || !mayReadTicket(order, caller)) throw notFound(TICKET_NOT_FOUND)
      return views.ticketPasses(order)
    },
  )

  app.post(
    '/checkin/:eventId/scans',
    {
      config: { access: 'signed-in' },
      schema: { params: CheckinParams, body: ScansBody, response: replies({ 200: ScanReplyList }) },
    },
    async (request) => {
      const { event, caller } = await eventFor(request, request.params.eventId, 'scan')
      return scans.scan(event, request.body.scans, { actor: caller.id, requestId: request.id })
    },
  )

  app.get(
    '/checkin/:eventId/manifest',
    {
      config: { access: 'signed-in' },
      schema: { params: CheckinParams, response: replies({ 200: Manifest }) },
    },
    async (request, reply) => {
      const { event } = await eventFor(request, request.params.eventId, 'scan')
      // JSON.stringify by hand: fast-json-stringify takes ten times as long over 50,000 tuples (and
      // cannot write a tuple member that may be null)
      const body = JSON.stringify(await views.manifest(event))
      return (reply as FastifyReply).type('application/json; charset=utf-8').send(body)
    },
  )

  app.get(
    '/checkin/:eventId/summary',
    {
      config: { access: 'signed-in' },
      schema: { params: CheckinParams, response: replies({ 200: CheckinSummary }) },
    },
    async (request) => {
      const { event } = await eventFor(request, request.params.eventId, 'scan')
      return views.summary(event.id)
    },
  )

  app.get(
    '/checkin/:eventId/door-staff',
    {
      config: { access: 'signed-in' },
      schema: { params: CheckinParams, response: replies({ 200: DoorStaffList }) },
    },
    async (request) => {
      const { event } = await eventFor(request, request.params.eventId, 'manage')
      return views.doorStaff(event.id)
    },
  )

  app.post(
    '/checkin/:eventId/door-staff',
    {
      config: { access: 'signed-in' },
      schema: { params: CheckinParams, body: AddDoorStaffBody, response: replies({ 201: DoorStaffMember }) },
    },
    async (request, reply) => {
      const { event, caller } = await eventFor(request, request.params.eventId, 'manage')
      const account = await accounts.byEmail(request.body.email)
      if (!account) throw notFound(NO_SUCH_RECIPIENT)
      await handleCommand(ledger, eventDecider, {
        stream: streams.event(event.id),
        command: { type: 'AddDoorStaff', eventId: event.id, accountId: account.id, by: caller.id },
        meta: { actor: caller.id, requestId: request.id },
      })
      return reply.code(201).send({ accountId: account.id, username: account.username, email: account.email })
    },
  )

  app.delete(
    '/checkin/:eventId/door-staff/:accountId',
    {
      config: { access: 'signed-in' },
      schema: { params: DoorStaffParams, response: replies({ 200: MessageReply }) },
    },
    async (request) => {
      const { event, caller } = await eventFor(request, request.params.eventId, 'manage')
      await handleCommand(ledger, eventDecider, {
        stream: streams.event(event.id),
        command: {
          type: 'RemoveDoorStaff',
          eventId: event.id,
          accountId: request.params.accountId,
          by: caller.id,
        },
        meta: { actor: caller.id, requestId: request.id },
      })
      return { message: 'Removed from the door staff.' }
    },
  )
}
