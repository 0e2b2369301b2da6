// The account's API tokens, one row each: scopes, events, expiry, last use and address, and Revoke,
// which asks first in the row itself.
import { useEffect, useRef, useState } from 'react'
import { revokeToken, type TokenView } from '../../api/tokens.ts'
import { messageOr } from '../../ui/fetched.tsx'
import { notify } from '../../ui/toasts.ts'
import { eventsText, whenOrNever } from './token-form.ts'
import { tokenTexts } from './token-texts.ts'

export function TokenTable(props: {
  tokens: TokenView[]
  titles: ReadonlyMap<string, string>
  /** the list's heading: it names the table, and takes the focus when a revoked row goes */
  headingId: string
  onRevoked(id: string): void
}) {
  const { tokens, titles } = props
  const [asking, setAsking] = useState<string | null>(null)
  const [revoking, setRevoking] = useState<string | null>(null)

  const revoke = async (token: TokenView) => {
    setRevoking(token.id)
    try {
      notify.success(await revokeToken(token.id))
      setAsking(null)
      props.onRevoked(token.id)
      document.getElementById(props.headingId)?.focus()
    } catch (error) {
      notify.error(messageOr(tokenTexts.revokeFailed)(error))
    } finally {
      setRevoking(null)
    }
  }

  if (tokens.length === 0) return <p className="empty-text">{tokenTexts.none}</p>
  const columns = tokenTexts.columns
  return (
    <div className="table-scroll">
      <table className="table-stack api-tokens-table" aria-labelledby={props.headingId}>
        <thead>
          <tr>
            <th scope="col">{columns.name}</th>
            <th scope="col">{columns.scopes}</th>
            <th scope="col">{columns.events}</th>
            <th scope="col">{columns.expires}</th>
            <th scope="col">{columns.lastUsed}</th>
            <th scope="col">{columns.lastAddress}</th>
            <th scope="col">
              <span className="visually-hidden">{columns.actions}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {tokens.map((token) => (
            <tr key={token.id}>
              <td data-label={columns.name}>{token.name}</td>
              <td data-label={columns.scopes}>
                <ul className="api-tokens-scopes">
                  {token.scopes.map((scope) => (
                    <li key={scope}>
                      <code>{scope}</code>
                    </li>
                  ))}
                </ul>
              </td>
              <td data-label={columns.events}>{eventsText(token.eventIds, titles)}</td>
              <td data-label={columns.expires}>{whenOrNever(token.expiresAt)}</td>
              <td data-label={columns.lastUsed}>{whenOrNever(token.lastUsedAt)}</td>
              <td data-label={columns.lastAddress}>{token.lastAddress ?? tokenTexts.noAddress}</td>
              <td>
                {asking === token.id ? (
                  <RevokeConfirm
                    token={token}
                    busy={revoking === token.id}
                    onYes={() => void revoke(token)}
                    onKeep={() => setAsking(null)}
                  />
                ) : (
                  <button
                    type="button"
                    className="button-secondary"
                    aria-label={`${tokenTexts.revoke} ${token.name}`}
                    onClick={() => setAsking(token.id)}
                  >
                    {tokenTexts.revoke}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

function RevokeConfirm(props: { token: TokenView; busy: boolean; onYes(): void; onKeep(): void }) {
  const yes = useRef<HTMLButtonElement>(null)
  useEffect(() => yes.current?.focus(), [])
  return (
    <div className="api-tokens-confirm">
      <p role="status">{tokenTexts.revokeQuestion(props.token.name)}</p>
      <div className="api-tokens-confirm-actions">
        <button ref={yes} type="button" className="button-danger" disabled={props.busy} onClick={props.onYes}>
          {props.busy ? tokenTexts.revoking : tokenTexts.revokeYes}
        </button>
        <button type="button" className="button-secondary" disabled={props.busy} onClick={props.onKeep}>
          {tokenTexts.keep}
        </button>
      </div>
    </div>
  )
}
