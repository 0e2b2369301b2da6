// The mail an asker gets when an admin answers.
import { accountQueries } from '../accounts/queries.ts'
import type { Db } from '../db/connection.ts'
import type { Mail } from '../mail/mailer.ts'
import { supportQueries } from './queries.ts'

export function inquiryMails(db: Db, publicUrl: string) {
  const accounts = accountQueries(db)
  const support = supportQueries(db)
  return {
    answered(inquiryId: string): Mail | null {
      const inquiry = support.byId(inquiryId)
      const asker = inquiry && accounts.byId(inquiry.userId)
      if (!inquiry || !asker || !inquiry.reply) return null
      return {
        to: asker.email,
        subject: `Re: ${inquiry.subject}`,
        text: [
          `Hello ${asker.username},`,
          '',
          'Our support team answered your inquiry:',
          '',
          inquiry.reply,
          '',
          `Your question was: ${inquiry.inquiry}`,
          '',
          `Your inquiries: ${publicUrl}/dashboard`,
        ].join('\n'),
      }
    },
  }
}
