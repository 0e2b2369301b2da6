export type InquiryOpened = {
  type: 'InquiryOpened'
  data: { inquiryId: string; userId: string; subject: string; inquiry: string }
}
export type InquiryAnswered = {
  type: 'InquiryAnswered'
  data: { inquiryId: string; userId: string; reply: string; by: string }
}
export type SupportFact = InquiryOpened | InquiryAnswered
