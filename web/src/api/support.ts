// Calls of the support desk (API.md /admin/support*) and the asker's own inquiries.
import * as v from 'valibot'
import { MessageReply } from '../../../contracts/common.ts'
import {
  INQUIRY_PAGE_LIMIT,
  InquiryList,
  InquiryReply,
  type InquiryView,
} from '../../../contracts/support.ts'
import { api } from './client.ts'

export type InquiryDraft = { subject: string; inquiry: string }

/** a user's new inquiry: the server's message and the stored inquiry */
export async function submitInquiry(draft: InquiryDraft): Promise<{ message: string; inquiry: InquiryView }> {
  return v.parse(InquiryReply, await api.post<unknown>('/admin/support', draft))
}

/** one page of every inquiry, newest first (admins): `page` from 1, INQUIRY_PAGE_LIMIT of them */
export async function fetchInquiryPage(page: number): Promise<InquiryView[]> {
  return v.parse(
    InquiryList,
    await api.post<unknown>(`/admin/support/get?page=${page}&limit=${INQUIRY_PAGE_LIMIT}`),
  )
}

export async function replyToInquiry(inquiryId: string, reply: string): Promise<string> {
  return v.parse(MessageReply, await api.post<unknown>('/admin/support/reply', { inquiryId, reply })).message
}

/** the signed-in account's own inquiries, newest first */
export async function fetchMyInquiries(): Promise<InquiryView[]> {
  return v.parse(InquiryList, await api.get<unknown>('/support/mine'))
}
