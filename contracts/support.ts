// Support inquiries (API.md /admin/support*).
import * as v from 'valibot'
import { Id, pageNumber } from './common.ts'

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

/** POST /admin/support/get's paging, as GET /event's: absent, every inquiry (the bare array of
 * API.md); with `page` (from 1), that page of `limit` inquiries (default 50, at most 200), newest
 * first, still a bare array, the whole count in the X-Total-Count header and the next page's
 * address in Link */
export const INQUIRY_PAGE_LIMIT = 50
export const INQUIRY_PAGE_MAX = 200
export const InquiryListQuery = v.object({
  page: pageNumber('page', 100_000),
  limit: pageNumber('limit', INQUIRY_PAGE_MAX),
})

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
