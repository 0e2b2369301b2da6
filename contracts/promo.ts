// Promo codes (issue 17): an event's organizer makes codes that take a share or an amount off its
// tickets, for some ticket types or all, a number of uses, between two times. A code is the
// organizer's word, matched without regard to case; it is kept upper-case.
import * as v from 'valibot'
import { hasWholePaise, TicketTypeChoice, TicketTypeName } from './catalog.ts'
import { PathParams } from './common.ts'

export const PROMO_CODE_PATTERN = /^[A-Z0-9][A-Z0-9_-]{2,31}$/

export const PromoCodeText = v.pipe(
  v.string('A promo code is text.'),
  v.trim(),
  v.toUpperCase(),
  v.regex(
    PROMO_CODE_PATTERN,
    'A promo code is 3 to 32 letters, digits, - or _, starting with a letter or digit.',
  ),
)

const IsoTime = v.pipe(
  v.string('A time is text such as 2030-01-01T18:00:00.000Z.'),
  v.maxLength(40, 'A time is text such as 2030-01-01T18:00:00.000Z.'),
  v.check(
    (text) => /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(text) && Number.isFinite(Date.parse(text)),
    'A time is text such as 2030-01-01T18:00:00.000Z.',
  ),
  v.transform((text) => new Date(text).toISOString()),
)

export const PromoCodeInput = v.pipe(
  v.object(
    {
      code: PromoCodeText,
      percentOff: v.optional(
        v.pipe(
          v.number('percentOff is a number.'),
          v.integer('percentOff is a whole number.'),
          v.minValue(1, 'percentOff is between 1 and 100.'),
          v.maxValue(100, 'percentOff is between 1 and 100.'),
        ),
      ),
      amountOff: v.optional(
        v.pipe(
          v.number('amountOff is a number of rupees.'),
          v.minValue(0.01, 'amountOff is more than 0.'),
          v.maxValue(10_000_000, 'amountOff is 10000000 or less.'),
          v.check(hasWholePaise, 'amountOff is in rupees and paise: two decimals or fewer.'),
        ),
      ),
      ticketTypes: v.optional(
        v.pipe(
          v.array(TicketTypeName, 'ticketTypes is a list of ticket types.'),
          v.minLength(1, 'ticketTypes names one ticket type or more.'),
          v.maxLength(100, 'ticketTypes names 100 ticket types or fewer.'),
        ),
      ),
      maxUses: v.optional(
        v.pipe(
          v.number('maxUses is a number.'),
          v.integer('maxUses is a whole number.'),
          v.minValue(1, 'maxUses is 1 or more.'),
          v.maxValue(1_000_000, 'maxUses is 1000000 or fewer.'),
        ),
      ),
      startsAt: v.optional(IsoTime),
      endsAt: v.optional(IsoTime),
    },
    'Send the promo code as an object.',
  ),
  v.check(
    (input) => input.percentOff === undefined || input.amountOff === undefined,
    'A promo code takes either percentOff or amountOff off, not both.',
  ),
  v.check(
    (input) => input.percentOff !== undefined || input.amountOff !== undefined,
    'A promo code takes percentOff or amountOff off: give one of them.',
  ),
  v.check(
    (input) => !input.startsAt || !input.endsAt || input.startsAt < input.endsAt,
    'endsAt must be after startsAt.',
  ),
)
export type PromoCodeInput = v.InferOutput<typeof PromoCodeInput>

export const PromoCodeView = v.object({
  code: v.string(),
  percentOff: v.nullable(v.number()),
  /** rupees */
  amountOff: v.nullable(v.number()),
  /** null: every ticket type */
  ticketTypes: v.nullable(v.array(v.string())),
  maxUses: v.nullable(v.number()),
  startsAt: v.nullable(v.string()),
  endsAt: v.nullable(v.string()),
  disabled: v.boolean(),
  /** uses held by unpaid orders, and paid */
  uses: v.object({ held: v.number(), paid: v.number() }),
})
export type PromoCodeView = v.InferOutput<typeof PromoCodeView>
export const PromoCodeList = v.array(PromoCodeView)

export const PromoCodeParams = PathParams({
  id: v.pipe(v.string(), v.regex(/^[a-zA-Z0-9_-]{1,64}$/, 'Event not found.')),
  code: v.pipe(v.string(), v.trim(), v.toUpperCase(), v.regex(PROMO_CODE_PATTERN, 'Promo code not found.')),
})

/** GET …/promo-codes/{code}/price: what an order would cost with the code, before checkout */
export const PromoPriceQuery = v.object({
  ticketType: TicketTypeChoice,
  quantity: v.pipe(
    v.string('Quantity must be a number.'),
    v.regex(/^\d{1,6}$/, 'Quantity must be a whole number.'),
    v.transform(Number),
    v.minValue(1, 'Quantity must be at least 1.'),
  ),
})
export const PromoPrice = v.object({
  code: v.string(),
  /** rupees: what the code takes off, and what the order then costs */
  discount: v.number(),
  amount: v.number(),
})
export type PromoPrice = v.InferOutput<typeof PromoPrice>
