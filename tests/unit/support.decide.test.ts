// given / when / then for the inquiry decider: opened once, answered once.
import { describe, expect, it } from 'vitest'
import { DomainError } from '../../server/errors.ts'
import { fold } from '../../server/ledger/decider.ts'
import { type InquiryCommand, inquiryDecider } from '../../server/support/decide.ts'
import type { InquiryAnswered, InquiryOpened, SupportFact } from '../../server/support/facts.ts'

const given = (facts: SupportFact[]) => ({
  when: (command: InquiryCommand) => {
    const run = () => inquiryDecider.decide(command, fold(inquiryDecider, facts))
    return {
      thenAppends: (expected: SupportFact[]) => expect(run()).toEqual(expected),
      thenRefuses: (kind: DomainError['kind'], message: string) => {
        expect(run).toThrow(DomainError)
        expect(run).toThrow(message)
        try {
          run()
        } catch (error) {
          expect((error as DomainError).kind).toBe(kind)
        }
      },
    }
  },
})

const inquiry = { inquiryId: 'i1', userId: 'u1', subject: 'Refund timing', inquiry: 'When will it arrive?' }
const opened: InquiryOpened = { type: 'InquiryOpened', data: inquiry }
const answered: InquiryAnswered = {
  type: 'InquiryAnswered',
  data: { inquiryId: 'i1', userId: 'u1', reply: 'Within 5 days.', by: 'a1' },
}

describe('Open', () => {
  it('opens a new inquiry', () => given([]).when({ type: 'Open', inquiry }).thenAppends([opened]))
  it('refuses to open the same inquiry twice', () =>
    given([opened]).when({ type: 'Open', inquiry }).thenRefuses('conflict', 'This inquiry exists already.'))
})

describe('Answer', () => {
  it('answers an open inquiry, to the asker it was opened by', () =>
    given([opened]).when({ type: 'Answer', reply: 'Within 5 days.', by: 'a1' }).thenAppends([answered]))
  it('refuses a second answer', () =>
    given([opened, answered])
      .when({ type: 'Answer', reply: 'Actually, 3 days.', by: 'a2' })
      .thenRefuses('conflict', 'This inquiry has been answered already.'))
  it('refuses to answer an inquiry that was never opened', () =>
    given([])
      .when({ type: 'Answer', reply: 'Hello?', by: 'a1' })
      .thenRefuses('not-found', 'Inquiry not found.'))
})
