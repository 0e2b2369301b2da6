// /admin/support* (API.md), and the asker's own inquiries.

import type { FastifyInstance } from 'fastify'
import { MessageReply } from '../../contracts/common.ts'
import {
  INQUIRY_PAGE_LIMIT,
  InquiryBody,
  InquiryList,
  InquiryListQuery,
  InquiryReply,
  type InquiryView,
  ReplyBody,
} from '../../contracts/support.ts'
import type { AccountQueries } from '../accounts/queries.ts'
import type { Throttle } from '../accounts/throttle.ts'
import { callerOf } from '../http/access.ts'
import { replies, type ValibotTypeProvider } from '../http/valibot.ts'
import { newId, streams } from '../ids.ts'
import { handleCommand } from '../ledger/decider.ts'
import type { Platform } from '../platform.ts'
import { inquiryDecider } from './decide.ts'
import type { InquiryRow, SupportQueries } from './queries.ts'

export type SupportRoutesOptions = {
  platform: Pick<Platform, 'ledger'>
  support: SupportQueries
  accounts: AccountQueries
  /** refuses an account sending inquiries in a loop */
  throttle: Pick<Throttle, 'perHour'>
}

export async function supportRoutes(fastify: FastifyInstance, options: SupportRoutesOptions) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>()
  const { support, accounts, throttle } = options
  const { ledger } = options.platform

  const views = async (rows: InquiryRow[]) => {
    const people = new Map(
      (await accounts.byIds([...new Set(rows.map((r) => r.userId))])).map((a) => [a.id, a]),
    )
    return rows.map((r) => ({
      _id: r.id,
      userId: r.userId,
      username: people.get(r.userId)?.username ?? '',
      email: people.get(r.userId)?.email ?? '',
      subject: r.subject,
      inquiry: r.inquiry,
      status: r.status,
      reply: r.reply,
      createdAt: r.createdAt,
      repliedAt: r.repliedAt,
    }))
  }

  app.post(
    '/admin/support',
    { config: { access: ['user'] }, schema: { body: InquiryBody, response: replies({ 201: InquiryReply }) } },
    async (request, reply) => {
      const asker = callerOf(request)
      await throttle.perHour('inquiry', asker.id)
      const inquiryId = newId()
      await handleCommand(ledger, inquiryDecider, {
        stream: streams.inquiry(inquiryId),
        command: { type: 'Open', inquiry: { inquiryId, userId: asker.id, ...request.body } },
        meta: { actor: asker.id, requestId: request.id },
      })
      const inquiry = (await views([(await support.byId(inquiryId)) as InquiryRow]))[0] as InquiryView
      return reply
        .code(201)
        .send({ message: 'Your inquiry has been submitted. We will reply soon.', inquiry })
    },
  )

  app.post(
    '/admin/support/get',
    {
      config: { access: ['admin'] },
      schema: { querystring: InquiryListQuery, response: replies({ 200: InquiryList }) },
    },
    async (request, reply) => {
      const { page, limit = INQUIRY_PAGE_LIMIT } = request.query
      if (!page) return views(await support.all())
      // A page: the order of the whole list, its count in a header (the body stays a bare array),
      // and the next page's address while there is one.
      const total = await support.count()
      reply.header('x-total-count', String(total))
      if (page * limit < total) {
        reply.header('link', `</api/v1/admin/support/get?page=${page + 1}&limit=${limit}>; rel="next"`)
      }
      return views(await support.page(limit, (page - 1) * limit))
    },
  )

  app.post(
    '/admin/support/reply',
    { config: { access: ['admin'] }, schema: { body: ReplyBody, response: replies({ 200: MessageReply }) } },
    async (request) => {
      const admin = callerOf(request)
      await handleCommand(ledger, inquiryDecider, {
        stream: streams.inquiry(request.body.inquiryId),
        command: { type: 'Answer', reply: request.body.reply, by: admin.id },
        meta: { actor: admin.id, requestId: request.id },
      })
      return { message: 'Reply sent successfully.' }
    },
  )

  app.get(
    '/support/mine',
    { config: { access: 'signed-in' }, schema: { response: replies({ 200: InquiryList }) } },
    async (request) => views(await support.ofUser(callerOf(request).id)),
  )
}
