// Support inquiries (API.md /admin/support*).
import * as v from 'valibot'
import { Id } from './common.ts'

export const InquiryBody = v.object({
  subject: v.pipe(
    v.string('Subject is required.'),
    v.trim(),
    v.nonEmpty('Subject is required.'),
    v.maxLength(200, 'Subject must be at most 200 characters.'),
  ),
  inquiry: v.pipe(
    v.string('Inquiry is required.'),
    v.trim(),
    v.nonEmpty('Inquiry is required.'),
    v.maxLength(5000, 'Inquiry must be at most 5000 characters.'),
  ),
})

export const InquiryView = v.object({
  _id: v.string(),
  userId: v.string(),
  username: v.string(),
  email: v.string(),
  subject: v.string(),
  inquiry: v.string(),
  status: v.picklist(['Pending', 'Replied']),
  reply: v.nullable(v.string()),
  createdAt: v.string(),
  repliedAt: v.nullable(v.string()),
})
export type InquiryView = v.InferOutput<typeof InquiryView>
export const InquiryList = v.array(InquiryView)

export const InquiryReply = v.object({ message: v.string(), inquiry: InquiryView })

export const ReplyBody = v.object({
  inquiryId: Id,
  reply: v.pipe(
    v.string('Reply is required.'),
    v.trim(),
    v.nonEmpty('Reply is required.'),
    v.maxLength(5000, 'Reply must be at most 5000 characters.'),
  ),
})
