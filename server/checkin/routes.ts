// The door's calls (issue 16, door-design.md): a ticket's passes, scans, the manifest, the check-in
// summary, the door staff (invited by e-mail) and an account's own invitations, accepted or
// declined. Who may call them is decided here, on the server, for each event: its organizer and the
// admins may do everything; its door staff (an accepted invitation) may scan (scans, manifest,
// summary) and nothing else; anyone else is refused.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { SignedInAccount } from '../../contracts/accounts.ts'
import { TicketParams } from '../../contracts/booking.ts'
import {
  AcceptInvitationReply,
  AddDoorStaffBody,
  CheckinParams,
  CheckinSummary,
  DoorInvitationList,
  DoorStaffList,
  DoorStaffParams,
  InvitationParams,
  Manifest,
  ScanReplyList,
  ScansBody,
  TicketPassList,
} from '../../contracts/checkin.ts'
import { MessageReply } from '../../contracts/common.ts'
import type { Throttle } from '../accounts/throttle.ts'
import { TICKET_NOT_FOUND } from '../booking/decide.ts'
import { type BookingQueries, mayReadTicket } from '../booking/queries.ts'
import type { CatalogCommands } from '../catalog/commands.ts'
import { EVENT_NOT_FOUND, INVITATION_NOT_FOUND } from '../catalog/decide.ts'
import type { CatalogQueries, EventRow } from '../catalog/queries.ts'
import { forbidden, notFound } from '../errors.ts'
import { callerOf } from '../http/access.ts'
import { replies, type ValibotTypeProvider } from '../http/valibot.ts'
import type { CheckinQueries } from './queries.ts'
import type { CheckinScans } from './scans.ts'
import type { CheckinViews } from './views.ts'

export const CHECKIN_REFUSED = "You do not have access to this event's check-in."
export const DOOR_STAFF_REFUSED = "Only the event's organizer can see and change its door staff."
/** the answer to every invitation, whoever the e-mail names (or nobody yet) */
export const INVITATION_SENT = 'Invitation sent. It shows as invited until it is accepted.'

export type CheckinRoutesOptions = {
  /** the event's door staff, decided on its stream by the catalogue (catalog/commands.ts) */
  doorStaff: Pick<
    CatalogCommands,
    'inviteDoorStaff' | 'removeDoorStaff' | 'acceptDoorStaff' | 'leaveDoorStaff'
  >
  checkin: CheckinQueries
  scans: CheckinScans
  views: CheckinViews
  events: Pick<CatalogQueries, 'byId'>
  booking: Pick<BookingQueries, 'byId'>
  /** refuses an account changing door staff in a loop (each invitation is a mail) */
  throttle: Pick<Throttle, 'perHour'>
}

/** what a caller may do at an event's door */
type Standing = 'manage' | 'scan' | null

export async function checkinRoutes(fastify: FastifyInstance, options: CheckinRoutesOptions) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>()
  const { doorStaff, checkin, scans, views, events, booking, throttle } = options

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
      config: { access: 'signed-in', tokenScope: 'checkin:write', tokenEvent: 'eventId' },
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
      config: { access: 'signed-in', tokenScope: 'checkin:write', tokenEvent: 'eventId' },
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
      config: { access: 'signed-in', tokenScope: 'checkin:write', tokenEvent: 'eventId' },
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
      schema: { params: CheckinParams, body: AddDoorStaffBody, response: replies({ 202: MessageReply }) },
    },
    async (request, reply) => {
      const { event, caller } = await eventFor(request, request.params.eventId, 'manage')
      await throttle.perHour('door-staff', caller.id)
      // No account is looked up: the invitation goes to the address, and the answer is the same
      // whoever has it (or nobody yet). Its mail is sent after commit (reactions).
      await doorStaff.inviteDoorStaff(
        { eventId: event.id, email: request.body.email, by: caller.id },
        { actor: caller.id, requestId: request.id },
      )
      return reply.code(202).send({ message: INVITATION_SENT })
    },
  )

  app.delete(
    '/checkin/:eventId/door-staff/:invitationId',
    {
      config: { access: 'signed-in' },
      schema: { params: DoorStaffParams, response: replies({ 200: MessageReply }) },
    },
    async (request) => {
      const { event, caller } = await eventFor(request, request.params.eventId, 'manage')
      await throttle.perHour('door-staff', caller.id)
      await doorStaff.removeDoorStaff(
        { eventId: event.id, invitationId: request.params.invitationId, by: caller.id },
        { actor: caller.id, requestId: request.id },
      )
      return { message: 'Removed from the door staff.' }
    },
  )

  app.get(
    '/checkin/invitations',
    {
      config: { access: 'signed-in' },
      schema: { response: replies({ 200: DoorInvitationList }) },
    },
    async (request) => views.invitationsOf(callerOf(request)),
  )

  /** the caller's invitation: its event, or 404 for one that is not the caller's (or gone) */
  const invitationFor = async (request: FastifyRequest, invitationId: string) => {
    const caller = callerOf(request)
    const invitation = await checkin.invitation(invitationId)
    const event = invitation && (await events.byId(invitation.eventId))
    if (!invitation || !event) throw notFound(INVITATION_NOT_FOUND)
    return { caller, event }
  }

  app.post(
    '/checkin/invitations/:invitationId/accept',
    {
      config: { access: 'signed-in' },
      schema: { params: InvitationParams, response: replies({ 200: AcceptInvitationReply }) },
    },
    async (request) => {
      const { caller, event } = await invitationFor(request, request.params.invitationId)
      // whether it is the caller's is decided on the event's stream (its e-mail, or its account)
      await doorStaff.acceptDoorStaff(
        {
          eventId: event.id,
          invitationId: request.params.invitationId,
          accountId: caller.id,
          email: caller.email,
        },
        { actor: caller.id, requestId: request.id },
      )
      return { message: `You are now door staff of ${event.title}.`, eventId: event.id }
    },
  )

  app.delete(
    '/checkin/invitations/:invitationId',
    {
      config: { access: 'signed-in' },
      schema: { params: InvitationParams, response: replies({ 200: MessageReply }) },
    },
    async (request) => {
      const { caller, event } = await invitationFor(request, request.params.invitationId)
      await doorStaff.leaveDoorStaff(
        {
          eventId: event.id,
          invitationId: request.params.invitationId,
          accountId: caller.id,
          email: caller.email,
        },
        { actor: caller.id, requestId: request.id },
      )
      return { message: `You are not door staff of ${event.title}.` }
    },
  )
}
