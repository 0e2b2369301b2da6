// /auth/* and the admin's account routes (API.md).
import { createHash, randomBytes } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import {
  AccountList,
  CreateOrganizerBody,
  ForgotPasswordBody,
  GetByIdBody,
  GetByIdReply,
  LoginBody,
  LoginReply,
  ProfileReply,
  RegisterBody,
  ResetPasswordBody,
  ResetPasswordParams,
} from '../../contracts/accounts.ts'
import { StatusReply } from '../../contracts/common.ts'
import { invalid, notFound, unauthenticated } from '../errors.ts'
import { callerOf, type Tokens } from '../http/access.ts'
import { limitedAddress } from '../http/client-address.ts'
import { replies, type ValibotTypeProvider } from '../http/valibot.ts'
import { streams } from '../ids.ts'
import { job, jobIds } from '../jobs/catalogue.ts'
import { enqueueOrDoNow } from '../jobs/port.ts'
import { handleCommand } from '../ledger/decider.ts'
import type { Platform } from '../platform.ts'
import { accountDecider, INVALID_RESET_LINK } from './decide.ts'
import { hashPassword, verifyPassword } from './passwords.ts'
import type { AccountQueries } from './queries.ts'
import { registerAccount } from './register.ts'
import { type Throttle, UNKNOWN_ACCOUNT_VERSION } from './throttle.ts'

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

export type AccountRoutesOptions = {
  platform: Pick<Platform, 'ledger' | 'jobs' | 'config' | 'mailer'>
  tokens: Tokens
  accounts: AccountQueries
  throttle: Throttle
  /** does this user hold a ticket to one of this organizer's events? (answered by booking) */
  isAttendeeOf: (organizerId: string, userId: string) => Promise<boolean>
  /** the user's live ticket ids and latest payment status, with an organizer's events when given
   * (answered by booking) */
  ticketsOf: (
    userId: string,
    organizerId?: string,
  ) => Promise<{ ticketIds: string[]; paymentStatus: string | null }>
}

export async function accountRoutes(fastify: FastifyInstance, options: AccountRoutesOptions) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>()
  const { platform, tokens, accounts, throttle } = options
  const { ledger, jobs, config } = platform
  const meta = (request: { id: string; account: { id: string } | null }) => ({
    actor: request.account?.id,
    requestId: request.id,
  })

  app.post(
    '/auth/register',
    {
      config: { access: 'anyone', statusFlag: true },
      schema: { body: RegisterBody, response: replies({ 200: StatusReply }) },
    },
    async (request) => {
      const { username, email, password, phone } = request.body
      await throttle.signupRequested(limitedAddress(request.ip))
      await registerAccount(
        ledger,
        { username, email, password, phone, role: 'user' },
        { requestId: request.id },
      )
      return { status: true, message: 'Account created. You can now log in.' }
    },
  )

  app.post(
    '/auth/login',
    {
      config: { access: 'anyone', statusFlag: true },
      schema: { body: LoginBody, response: replies({ 200: LoginReply }) },
    },
    async (request) => {
      const { email, password } = request.body
      const account = await accounts.byEmail(email)
      const attempt = {
        email,
        passwordVersion: account?.passwordChangedAt ?? UNKNOWN_ACCOUNT_VERSION,
        ip: limitedAddress(request.ip),
      }
      // an unknown e-mail is checked too (against a decoy), so it takes as long as a wrong password
      const matches = await throttle.login(
        attempt,
        async () => (await verifyPassword(account?.passwordHash, password)) && account !== undefined,
      )
      if (!account || !matches) throw unauthenticated('Invalid email or password.')
      return { status: true as const, token: tokens.sign(account), message: 'Login successfully !' }
    },
  )

  app.get(
    '/auth/profile',
    { config: { access: 'signed-in' }, schema: { response: replies({ 200: ProfileReply }) } },
    async (request) => {
      const account = callerOf(request)
      return {
        user: {
          _id: account.id,
          username: account.username,
          email: account.email,
          role: account.role,
          phone: account.phone,
          ticketId: (await options.ticketsOf(account.id)).ticketIds,
        },
      }
    },
  )

  app.post(
    '/auth/getbyid',
    {
      config: { access: ['organizers', 'admin'] },
      schema: { body: GetByIdBody, response: replies({ 200: GetByIdReply }) },
    },
    async (request) => {
      const caller = callerOf(request)
      const user = await accounts.byId(request.body.userid)
      // An organizer learns nothing about accounts that hold none of its tickets, not even existence.
      if (!user || (caller.role === 'organizers' && !(await options.isAttendeeOf(caller.id, user.id)))) {
        throw notFound('User not found.')
      }
      return {
        user: {
          _id: user.id,
          username: user.username,
          email: user.email,
          phone: user.phone,
          paymentStatus: (
            await options.ticketsOf(user.id, caller.role === 'organizers' ? caller.id : undefined)
          ).paymentStatus,
        },
      }
    },
  )

  app.post(
    '/auth/forgotpassword',
    {
      config: { access: 'anyone', statusFlag: true },
      schema: { body: ForgotPasswordBody, response: replies({ 200: StatusReply }) },
    },
    async (request) => {
      const { email } = request.body
      await throttle.forgotRequested(email, limitedAddress(request.ip))
      const account = await accounts.byEmail(email)
      if (account) {
        const token = randomBytes(32).toString('base64url')
        const tokenHash = sha256(token)
        const expiresAt = new Date(Date.now() + config.resetTokenMinutes * 60_000).toISOString()
        await handleCommand(ledger, accountDecider, {
          stream: streams.account(account.id),
          command: { type: 'RequestPasswordReset', accountId: account.id, tokenHash, expiresAt },
          meta: meta(request),
        })
        const link = `${config.publicUrl}/reset-password/${token}`
        // The raw token exists only in this mail; the ledger keeps its hash.
        const mail = {
          to: account.email,
          subject: 'Reset your password',
          text: [
            `Hello ${account.username},`,
            '',
            'Someone asked to reset the password of your Event Management account.',
            `Open this link within ${config.resetTokenMinutes} minutes to choose a new password:`,
            '',
            link,
            '',
            'If it was not you, ignore this mail: your password stays as it is.',
          ].join('\n'),
        }
        // The queue away, it is sent now rather than not at all.
        await enqueueOrDoNow(
          jobs,
          job('mail.send', mail, { jobId: jobIds.resetMail(tokenHash), sensitive: true }),
          () => platform.mailer.send(mail),
        )
      }
      return {
        status: true,
        message: 'If an account exists for this email, a reset link has been sent to it.',
      }
    },
  )

  app.post(
    '/auth/reset-password/:token',
    {
      config: { access: 'anyone', statusFlag: true },
      schema: {
        params: ResetPasswordParams,
        body: ResetPasswordBody,
        response: replies({ 200: StatusReply }),
      },
    },
    async (request) => {
      const tokenHash = sha256(request.params.token)
      const accountId = await accounts.resetLinkOwner(tokenHash)
      if (!accountId) throw invalid(INVALID_RESET_LINK)
      const passwordHash = await hashPassword(request.body.password)
      await handleCommand(ledger, accountDecider, {
        stream: streams.account(accountId),
        command: { type: 'ResetPassword', accountId, tokenHash, passwordHash, now: new Date().toISOString() },
        meta: { actor: accountId, requestId: request.id },
      })
      // The new password version starts the account's sign-in counts afresh (throttle.ts keys
      // them by it): the owner who proved the mailbox is not kept waiting by an attacker's guesses.
      return { status: true, message: 'Your password has been reset successfully.' }
    },
  )

  app.post(
    '/admin/create-organizer',
    {
      config: { access: ['admin'], statusFlag: true },
      schema: { body: CreateOrganizerBody, response: replies({ 201: StatusReply }) },
    },
    async (request, reply) => {
      const { name, email, password } = request.body
      await registerAccount(
        ledger,
        { username: name, email, password, role: 'organizers', createdBy: callerOf(request).id },
        meta(request),
      )
      return reply.code(201).send({ status: true, message: 'Organizer created successfully!' })
    },
  )

  app.get(
    '/admin/getalluser',
    { config: { access: ['admin'] }, schema: { response: replies({ 200: AccountList }) } },
    async () =>
      (await accounts.all()).map((a) => ({ _id: a.id, username: a.username, email: a.email, role: a.role })),
  )
}
