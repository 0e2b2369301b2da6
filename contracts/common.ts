// Shapes shared by every area: ids, e-mail, the error reply.
import * as v from 'valibot'

export const Id = v.pipe(
  v.string('An id is required.'),
  v.trim(),
  v.regex(/^[a-zA-Z0-9_-]{1,64}$/, 'Invalid id.'),
)

export const Email = v.pipe(
  v.string('Email is required'),
  v.trim(),
  v.nonEmpty('Email is required'),
  v.maxLength(254, 'Email is too long.'),
  v.email('Please enter a valid email.'),
  v.toLowerCase(),
)

export const Password = v.pipe(
  v.string('Password is required.'),
  v.nonEmpty('Password is required.'),
  v.minLength(6, 'Password must be at least 6 characters.'),
  v.maxLength(256, 'Password must be at most 256 characters.'),
)

export const ErrorReply = v.object({
  message: v.string(),
  status: v.optional(v.literal(false)),
  issues: v.optional(v.array(v.object({ field: v.string(), message: v.string() }))),
})
export type ErrorReply = v.InferOutput<typeof ErrorReply>

export const MessageReply = v.object({ message: v.string() })
export const StatusReply = v.object({ status: v.boolean(), message: v.string() })
export type StatusReply = v.InferOutput<typeof StatusReply>
