// An endpoint's deliveries, one row each: kind, ledger position, status, attempts, the last answer's
// code and time, and Send again. Watched while shown, more often while some are still to go out.
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { type Delivery, fetchDeliveries, retryDelivery, type Webhook } from '../../api/webhooks.ts'
import { Fetched, messageOr } from '../../ui/fetched.tsx'
import { notify } from '../../ui/toasts.ts'
import { deliveriesRefetchMs, deliveryCells, webhooksKey } from './webhook-form.ts'
import { webhookTexts } from './webhook-texts.ts'

export const deliveriesKey = (id: string) => ['webhook-deliveries', id] as const

export function WebhookDeliveries({ id, webhook }: { id: string; webhook: Webhook }) {
  const queryClient = useQueryClient()
  const key = deliveriesKey(webhook.id)
  const deliveries = useQuery({
    queryKey: key,
    queryFn: () => fetchDeliveries(webhook.id),
    refetchInterval: (query) => deliveriesRefetchMs(query.state.data),
  })
  const [sending, setSending] = useState<string | null>(null)

  const sendAgain = async (delivery: Delivery) => {
    setSending(delivery.id)
    try {
      notify.success(await retryDelivery(webhook.id, delivery.id))
      await queryClient.invalidateQueries({ queryKey: key })
      // an endpoint turned off is on again once a delivery of it is sent again
      if (webhook.disabledAt) await queryClient.invalidateQueries({ queryKey: webhooksKey })
    } catch (error) {
      notify.error(messageOr(webhookTexts.sendAgainFailed)(error))
    } finally {
      setSending(null)
    }
  }

  const columns = webhookTexts.columns
  return (
    <section id={id} className="webhooks-deliveries" aria-label={webhookTexts.deliveriesOf(webhook.url)}>
      <Fetched
        query={deliveries}
        loading={<p className="empty-text">Loading...</p>}
        failed={messageOr(webhookTexts.deliveriesFailed)}
        frame={(content) => content}
      >
        {(list) =>
          list.length === 0 ? (
            <p className="empty-text">{webhookTexts.noDeliveries}</p>
          ) : (
            <div className="table-scroll">
              <table
                className="table-stack webhooks-table"
                aria-label={webhookTexts.deliveriesOf(webhook.url)}
              >
                <thead>
                  <tr>
                    <th scope="col">{columns.type}</th>
                    <th scope="col">{columns.position}</th>
                    <th scope="col">{columns.status}</th>
                    <th scope="col">{columns.attempts}</th>
                    <th scope="col">{columns.lastCode}</th>
                    <th scope="col">{columns.lastAt}</th>
                    <th scope="col">
                      <span className="visually-hidden">{columns.actions}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((delivery) => {
                    const cells = deliveryCells(delivery)
                    return (
                      <tr key={delivery.id}>
                        <td data-label={columns.type}>
                          <code>{cells.type}</code>
                        </td>
                        <td data-label={columns.position}>{cells.position}</td>
                        <td data-label={columns.status}>
                          <span className={`webhooks-status webhooks-status-${delivery.status}`}>
                            {cells.status}
                          </span>
                        </td>
                        <td data-label={columns.attempts}>{cells.attempts}</td>
                        <td data-label={columns.lastCode}>{cells.lastCode}</td>
                        <td data-label={columns.lastAt}>{cells.lastAt}</td>
                        <td>
                          <button
                            type="button"
                            className="button-secondary"
                            disabled={sending === delivery.id}
                            onClick={() => void sendAgain(delivery)}
                          >
                            {sending === delivery.id ? webhookTexts.sending : webhookTexts.sendAgain}
                            <span className="visually-hidden">
                              {webhookTexts.sendAgainWhich(cells.type, cells.position)}
                            </span>
                          </button>
                        </td>
                      </tr>
                    )
                  })}
                </tbody>
              </table>
            </div>
          )
        }
      </Fetched>
    </section>
  )
}
