// Shapes shared by every area: ids, e-mail, the error reply.
import * as v from 'valibot'

export const Id = v.pipe(
  v.string('An id is required.'),
  v.trim(),
  v.regex(/^[a-zA-Z0-9_-]{1,64}$/, 'Invalid id.'),
)

/** Path parameters that name a thing: the schemas made by PathParams. */
const naming = new WeakSet<object>()

/**
 * The parameters of an address that names a thing (an event, a ticket): a value that could never
 * be an id names nothing, and is answered as an unknown one, 404 with the message its check gives
 * ('Event not found.'), not as a malformed request.
 */
export function PathParams<const T extends v.ObjectEntries>(entries: T) {
  const schema = v.object(entries)
  naming.add(schema)
  return schema
}

/** Whether a malformed value of these parameters is answered 404 (PathParams). */
export const namesAThing = (schema: unknown) =>
  typeof schema === 'object' && schema !== null && naming.has(schema)

/** a whole number with commas between thousands (100000 → "100,000"), as `toLocaleString('en')`
 * writes it, without the cost of a number format made at every schema's load in a browser */
const withCommas = (n: number) => String(n).replace(/\B(?=(\d{3})+$)/g, ',')

/** A listing's page or page size in the query string (?page=&limit=): absent, or a whole number from 1 to max. */
export const pageNumber = (name: string, max: number) => {
  const message = `${name} must be a whole number from 1 to ${withCommas(max)}.`
  return v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,6}$/, message),
      v.transform(Number),
      v.minValue(1, message),
      v.maxValue(max, message),
    ),
  )
}

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
  /** the seats a refusal is about (seat maps: seats no longer free, or that a new plan would move) */
  seats: v.optional(v.array(v.string())),
})
export type ErrorReply = v.InferOutput<typeof ErrorReply>

export const MessageReply = v.object({ message: v.string() })
export const StatusReply = v.object({ status: v.boolean(), message: v.string() })
export type StatusReply = v.InferOutput<typeof StatusReply>

/**
 * A rupee number with at most two decimals (19.99 yes, 19.999 no): the nearest whole paisa, back in
 * rupees, is the number itself. Not "n × 100 is whole": 19.99 × 100 is 1998.9999999999998 in
 * binary, which refused prices like ₹19.99 or ₹4.35.
 */
export const hasWholePaise = (rupees: number): boolean =>
  Number.isFinite(rupees) && Math.round(rupees * 100) / 100 === rupees

/** A YYYY-MM-DD that names a day on the calendar (not 2027-02-30), of any year from 0000. */
export const isCalendarDate = (text: string) => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  if (!match) return false
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
  return days !== undefined && day >= 1 && day <= days
}

/**
 * A date and time that names an instant (valibot's isoTimestamp takes "+05", which Date does not),
 * on a day of the calendar: Date reads 2030-02-30 as 2 March, which would be kept instead of refused.
 */
export const isInstant = (text: string) =>
  !Number.isNaN(Date.parse(text)) && isCalendarDate(text.slice(0, 10))
