// given / when / then for the inquiry decider: opened once, answered once.
import { describe, it } from 'vitest'
import { inquiryDecider } from '../../server/support/decide.ts'
import type { InquiryAnswered, InquiryOpened } from '../../server/support/facts.ts'
import { deciderSpec } from '../support/decider-spec.ts'

const { given } = deciderSpec(inquiryDecider)

const inquiry = { inquiryId: 'i1', userId: 'u1', subject: 'Refund timing', inquiry: 'When will it arrive?' }
const opened: InquiryOpened = { type: 'InquiryOpened', data: inquiry }
const answered: InquiryAnswered = {
  type: 'InquiryAnswered',
  data: { inquiryId: 'i1', userId: 'u1', reply: 'Within 5 days.', by: 'a1' },
}

describe('Open', () => {
  it('opens a new inquiry', () => given([]).when({ type: 'Open', inquiry }).then([opened]))
  it('refuses to open the same inquiry twice', () =>
    given([opened]).when({ type: 'Open', inquiry }).thenRefuses('conflict', 'This inquiry exists already.'))
  it('refuses to open it again once it was answered', () =>
    given([opened, answered])
      .when({ type: 'Open', inquiry })
      .thenRefuses('conflict', 'This inquiry exists already.'))
})

describe('Answer', () => {
  it('answers an open inquiry, to the asker it was opened by', () =>
    given([opened]).when({ type: 'Answer', reply: 'Within 5 days.', by: 'a1' }).then([answered]))
  it('refuses a second answer', () =>
    given([opened, answered])
      .when({ type: 'Answer', reply: 'Actually, 3 days.', by: 'a2' })
      .thenRefuses('conflict', 'This inquiry has been answered already.'))
  it('refuses to answer an inquiry that was never opened', () =>
    given([])
      .when({ type: 'Answer', reply: 'Hello?', by: 'a1' })
      .thenRefuses('not-found', 'Inquiry not found.'))
})
