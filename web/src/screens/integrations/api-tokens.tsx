// API tokens (/account/tokens, organizers and admins): a form that makes a token (name, scopes,
// events, expiry), checked with the server's own schema and showing what the server refuses at the
// field it names; the new token's secret shown once, until dismissed or the page is left; and the
// account's tokens with their last use, each revoked after a confirmation.
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useMemo, useState } from 'react'
import { fetchMyEvents } from '../../api/catalog.ts'
import { type CreatedToken, fetchTokens, type TokenView } from '../../api/tokens.ts'
import { useSession } from '../../session/use-session.ts'
import { Fetched, messageOr } from '../../ui/fetched.tsx'
import { NewSecret } from './new-secret.tsx'
import { NewTokenForm } from './new-token-form.tsx'
import { TokenTable } from './token-table.tsx'
import { tokenTexts } from './token-texts.ts'
import './api-tokens.css'

const tokensKey = ['api-tokens'] as const
const myEventsKey = ['my-events'] as const
const LIST_HEADING = 'api-tokens-list'

export function ApiTokensScreen() {
  const { user } = useSession()
  const organizer = user?.role === 'organizers'
  const queryClient = useQueryClient()
  const tokens = useQuery({ queryKey: tokensKey, queryFn: fetchTokens })
  // an admin's tokens cover every event: only an organizer picks some of theirs
  const events = useQuery({ queryKey: myEventsKey, queryFn: fetchMyEvents, enabled: organizer })
  const titles = useMemo(
    () => new Map((events.data ?? []).map((event) => [event._id, event.title] as const)),
    [events.data],
  )
  const [created, setCreated] = useState<CreatedToken | null>(null)

  const onCreated = (token: CreatedToken) => {
    setCreated(token)
    const { token: _secret, ...view } = token
    queryClient.setQueryData<TokenView[]>(tokensKey, (list) => [
      ...(list ?? []),
      { ...view, lastUsedAt: null, lastAddress: null },
    ])
    void queryClient.invalidateQueries({ queryKey: tokensKey })
  }

  return (
    <section className="page api-tokens-page">
      <header className="api-tokens-header">
        <h1>{tokenTexts.heading}</h1>
        <nav className="api-tokens-links" aria-label="Account">
          {organizer ? (
            <>
              <Link to="/organizers/dashboard">Dashboard</Link>
              <Link to="/organizer/billing">Billing</Link>
              <Link to="/organizer/invoices">Invoices</Link>
              <Link to="/account/webhooks">Webhooks</Link>
            </>
          ) : (
            <Link to="/admin/dashboard">Dashboard</Link>
          )}
        </nav>
      </header>
      <p className="form-hint">{tokenTexts.intro}</p>
      {created && <NewSecret token={created} onDismiss={() => setCreated(null)} />}
      <NewTokenForm organizer={organizer} events={events} onCreated={onCreated} />
      <h2 id={LIST_HEADING} tabIndex={-1}>
        {tokenTexts.listHeading}
      </h2>
      <Fetched
        query={tokens}
        loading={<p className="empty-text">Loading...</p>}
        failed={messageOr(tokenTexts.loadFailed)}
        frame={(content) => content}
      >
        {(list) => (
          <TokenTable
            tokens={list}
            titles={titles}
            headingId={LIST_HEADING}
            onRevoked={(id) =>
              queryClient.setQueryData<TokenView[]>(tokensKey, (rows) => rows?.filter((row) => row.id !== id))
            }
          />
        )}
      </Fetched>
    </section>
  )
}
