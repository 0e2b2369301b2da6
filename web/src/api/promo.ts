// Calls of promo codes (issue 17): an event's codes for its organizer, and the booking screen's check
// of one before checkout.
import * as v from 'valibot'
import { MessageReply } from '../../../contracts/common.ts'
import { PromoCodeList, PromoCodeView, PromoPrice } from '../../../contracts/promo.ts'
import { api } from './client.ts'

export type { PromoCodeView, PromoPrice } from '../../../contracts/promo.ts'

const path = (id: string) => encodeURIComponent(id)

export const fetchPromoCodes = async (eventId: string): Promise<PromoCodeView[]> =>
  v.parse(PromoCodeList, await api.get<unknown>(`/event/${path(eventId)}/promo-codes`))

/** what the organizer's form sends: a share or an amount off, and the optional limits */
export type NewPromoCode = {
  code: string
  percentOff?: number
  amountOff?: number
  maxUses?: number
  ticketTypes?: string[]
}

export const createPromoCode = async (eventId: string, body: NewPromoCode): Promise<PromoCodeView> =>
  v.parse(PromoCodeView, await api.post<unknown>(`/event/${path(eventId)}/promo-codes`, body))

export const disablePromoCode = async (eventId: string, code: string) =>
  v.parse(MessageReply, await api.delete<unknown>(`/event/${path(eventId)}/promo-codes/${path(code)}`))

export const fetchPromoPrice = async (
  eventId: string,
  code: string,
  ticketType: string,
  quantity: number,
): Promise<v.InferOutput<typeof PromoPrice>> => {
  const query = new URLSearchParams({ ticketType, quantity: String(quantity) })
  return v.parse(
    PromoPrice,
    await api.get<unknown>(`/event/${path(eventId)}/promo-codes/${path(code)}/price?${query}`),
  )
}
