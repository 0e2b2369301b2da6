// The mail an asker gets when an admin answers.
import type { AccountQueries } from '../accounts/queries.ts'
import type { Mail } from '../mail/mailer.ts'
import type { SupportQueries } from './queries.ts'

export type InquiryMails = ReturnType<typeof inquiryMails>

export function inquiryMails(parts: {
  accounts: AccountQueries
  support: SupportQueries
  publicUrl: string
}) {
  const { accounts, support, publicUrl } = parts
  return {
    async answered(inquiryId: string): Promise<Mail | null> {
      const inquiry = await support.byId(inquiryId)
      const asker = inquiry && (await accounts.byId(inquiry.userId))
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
