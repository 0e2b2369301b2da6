// Pure decisions about one inquiry: opened once, answered once.
import { conflict, notFound } from '../errors.ts'
import type { Decider } from '../ledger/decider.ts'
import type { InquiryOpened, SupportFact } from './facts.ts'

export type InquiryState = { opened: InquiryOpened['data'] | null; answered: boolean }

export type InquiryCommand =
  | { type: 'Open'; inquiry: InquiryOpened['data'] }
  | { type: 'Answer'; reply: string; by: string }

export const inquiryDecider: Decider<InquiryState, InquiryCommand, SupportFact> = {
  initialState: () => ({ opened: null, answered: false }),
  evolve(state, fact) {
    switch (fact.type) {
      case 'InquiryOpened':
        return { ...state, opened: fact.data }
      case 'InquiryAnswered':
        return { ...state, answered: true }
      default:
        return fact satisfies never
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'Open':
        if (state.opened) throw conflict('This inquiry exists already.')
        return [{ type: 'InquiryOpened', data: command.inquiry }]
      case 'Answer': {
        const opened = state.opened
        if (!opened) throw notFound('Inquiry not found.')
        if (state.answered) throw conflict('This inquiry has been answered already.')
        return [
          {
            type: 'InquiryAnswered',
            data: {
              inquiryId: opened.inquiryId,
              userId: opened.userId,
              reply: command.reply,
              by: command.by,
            },
          },
        ]
      }
      default:
        return command satisfies never
    }
  },
}
