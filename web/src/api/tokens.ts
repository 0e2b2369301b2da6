// Calls of API tokens (API.md, "Tokens and webhooks"): the signed-in organizer's or admin's own
// tokens, made (the secret comes back this once), listed with their last use, and revoked.
import * as v from 'valibot'
import { MessageReply } from '../../../contracts/common.ts'
import { CreatedTokenView, type CreateTokenBody, TokenView } from '../../../contracts/tokens.ts'
import { api } from './client.ts'

export type { TokenView }
export type CreatedToken = v.InferOutput<typeof CreatedTokenView>

/** GET /account/tokens: the account's tokens not revoked, with their last use and address */
export const fetchTokens = async (): Promise<TokenView[]> =>
  v.parse(v.array(TokenView), await api.get<unknown>('/account/tokens'))

/** POST /account/tokens: the token made, with its secret (shown once, never again) */
export const createToken = async (body: CreateTokenBody): Promise<CreatedToken> =>
  v.parse(CreatedTokenView, await api.post<unknown>('/account/tokens', body))

/** DELETE /account/tokens/{id}: the server's word that it is revoked (refused at once everywhere) */
export const revokeToken = async (id: string): Promise<string> =>
  v.parse(MessageReply, await api.delete<unknown>(`/account/tokens/${encodeURIComponent(id)}`)).message
