// Accounts: sign-up, sign-in, profile, password reset, organizer creation (API.md /auth/*, /admin/*).
import * as v from 'valibot'
import { Email, Id, Password } from './common.ts'

export const Role = v.picklist(['user', 'organizers', 'admin'])
export type Role = v.InferOutput<typeof Role>

const Name = (label: string) =>
  v.pipe(
    v.string(`${label} is required.`),
    v.trim(),
    v.nonEmpty(`${label} is required.`),
    v.maxLength(60, `${label} must be at most 60 characters.`),
  )

export const RegisterBody = v.object({
  username: Name('Username'),
  email: Email,
  password: Password,
  phone: v.optional(
    v.pipe(v.string(), v.trim(), v.regex(/^\+?[0-9 ()-]{6,20}$/, 'Please enter a valid phone number.')),
  ),
})
export type RegisterBody = v.InferInput<typeof RegisterBody>

/** Login checks presence only: a wrong-but-present password is a 401, not a 400. */
export const LoginBody = v.object({
  email: v.pipe(
    v.string('Email and Password are required'),
    v.trim(),
    v.nonEmpty('Email and Password are required'),
    v.maxLength(254, 'Email is too long.'),
    v.toLowerCase(),
  ),
  password: v.pipe(
    v.string('Email and Password are required'),
    v.nonEmpty('Email and Password are required'),
    v.maxLength(256, 'Password must be at most 256 characters.'),
  ),
})
export type LoginBody = v.InferInput<typeof LoginBody>

export const LoginReply = v.object({ status: v.literal(true), token: v.string(), message: v.string() })
export type LoginReply = v.InferOutput<typeof LoginReply>

export const Profile = v.object({
  _id: v.string(),
  username: v.string(),
  email: v.string(),
  role: Role,
  phone: v.nullable(v.string()),
  ticketId: v.array(v.string()),
})
export type Profile = v.InferOutput<typeof Profile>
export const ProfileReply = v.object({ user: Profile })
export type ProfileReply = v.InferOutput<typeof ProfileReply>

export const GetByIdBody = v.object({ userid: Id })
export const GetByIdReply = v.object({
  user: v.object({
    _id: v.string(),
    username: v.string(),
    email: v.string(),
    phone: v.nullable(v.string()),
    paymentStatus: v.nullable(v.string()),
  }),
})
export type GetByIdReply = v.InferOutput<typeof GetByIdReply>

export const ForgotPasswordBody = v.object({
  email: v.pipe(
    v.string('Email required'),
    v.trim(),
    v.nonEmpty('Email required'),
    v.maxLength(254, 'Email is too long.'),
    v.email('Please enter a valid email.'),
    v.toLowerCase(),
  ),
})
export const ResetPasswordParams = v.object({
  token: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{20,100}$/, 'This reset link is invalid or has expired.')),
})
export const ResetPasswordBody = v.object({ password: Password })

export const CreateOrganizerBody = v.object({ name: Name('Name'), email: Email, password: Password })
export type CreateOrganizerBody = v.InferInput<typeof CreateOrganizerBody>

export const AccountSummary = v.object({
  _id: v.string(),
  username: v.string(),
  email: v.string(),
  role: Role,
})
export type AccountSummary = v.InferOutput<typeof AccountSummary>
export const AccountList = v.array(AccountSummary)

/**
 * The signed-in account as the HTTP edge knows it (server/http/access.ts): the accounts area's row
 * satisfies it, so access depends on this shape and not on the accounts area.
 */
export type SignedInAccount = {
  id: string
  username: string
  email: string
  role: Role
  phone: string | null
  passwordChangedAt: number
  createdAt: string
}
