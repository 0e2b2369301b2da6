// An event's promo codes on its organizer's page (issue 17): made here (a share or an amount off
// each seat, an optional number of uses), listed with their uses (paid, and held by unpaid orders;
// fetched again as the event's sales are pushed, at most once a second: live/follow.ts) and
// disabled. The server checks every term and says what is wrong.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useId, useState } from 'react'
import { createPromoCode, disablePromoCode, type NewPromoCode, type PromoCodeView } from '../../api/promo.ts'
import { keys, promoCodesQuery } from '../../api/queries.ts'
import { FetchError, messageOr } from '../../ui/fetched.tsx'
import { formatPrice } from '../../ui/format.ts'
import { notify } from '../../ui/toasts.ts'

export const promoTexts = {
  heading: 'Promo codes',
  code: 'Code',
  kind: 'Discount',
  percent: '% off',
  amount: '₹ off each ticket',
  value: 'Value',
  maxUses: 'Uses (blank: unlimited)',
  create: 'Create code',
  creating: 'Creating...',
  disable: 'Disable',
  none: 'No promo codes yet.',
  failed: 'Error fetching promo codes',
  created: 'Promo code created.',
  createFailed: 'Could not create the promo code.',
  disabled: 'Promo code disabled.',
  disableFailed: 'Could not disable the promo code.',
} as const

const offText = (code: PromoCodeView) =>
  code.percentOff !== null ? `${code.percentOff}% off` : `${formatPrice(code.amountOff ?? 0)} off each ticket`

const usesText = (code: PromoCodeView) =>
  `${code.uses.paid} paid${code.uses.held > 0 ? `, ${code.uses.held} held` : ''}${
    code.maxUses !== null ? ` of ${code.maxUses}` : ''
  }`

export function PromoCodes({ eventId }: { eventId: string }) {
  const headingId = useId()
  const codeId = useId()
  const kindId = useId()
  const valueId = useId()
  const usesId = useId()
  const queryClient = useQueryClient()
  const codes = useQuery(promoCodesQuery(eventId))
  const [code, setCode] = useState('')
  const [kind, setKind] = useState<'percent' | 'amount'>('percent')
  const [value, setValue] = useState('')
  const [maxUses, setMaxUses] = useState('')
  const [error, setError] = useState<string | null>(null)
  const refetch = () => queryClient.invalidateQueries({ queryKey: keys.promoCodes(eventId) })

  const create = useMutation({
    mutationFn: (body: NewPromoCode) => createPromoCode(eventId, body),
    onSuccess: () => {
      setCode('')
      setValue('')
      setMaxUses('')
      notify.success(promoTexts.created)
      return refetch()
    },
    onError: (failure) => setError(messageOr(promoTexts.createFailed)(failure)),
  })
  const disable = useMutation({
    mutationFn: (name: string) => disablePromoCode(eventId, name),
    onSuccess: () => {
      notify.success(promoTexts.disabled)
      return refetch()
    },
    onError: (failure) => notify.error(messageOr(promoTexts.disableFailed)(failure)),
  })

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setError(null)
    const amount = Number(value)
    const uses = maxUses.trim() === '' ? undefined : Number(maxUses)
    create.mutate({
      code: code.trim(),
      ...(kind === 'percent' ? { percentOff: amount } : { amountOff: amount }),
      ...(uses === undefined ? {} : { maxUses: uses }),
    })
  }

  return (
    <section className="promo-codes event-analytics" aria-labelledby={headingId}>
      <h3 id={headingId}>{promoTexts.heading}</h3>
      <form className="promo-codes-form" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor={codeId}>{promoTexts.code}</label>
          <input
            id={codeId}
            value={code}
            autoComplete="off"
            onChange={(change) => setCode(change.target.value)}
            disabled={create.isPending}
          />
        </div>
        <div className="field">
          <label htmlFor={kindId}>{promoTexts.kind}</label>
          <select
            id={kindId}
            value={kind}
            onChange={(change) => setKind(change.target.value === 'amount' ? 'amount' : 'percent')}
            disabled={create.isPending}
          >
            <option value="percent">{promoTexts.percent}</option>
            <option value="amount">{promoTexts.amount}</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor={valueId}>{promoTexts.value}</label>
          <input
            id={valueId}
            type="number"
            min={0}
            value={value}
            onChange={(change) => setValue(change.target.value)}
            disabled={create.isPending}
          />
        </div>
        <div className="field">
          <label htmlFor={usesId}>{promoTexts.maxUses}</label>
          <input
            id={usesId}
            type="number"
            min={1}
            value={maxUses}
            onChange={(change) => setMaxUses(change.target.value)}
            disabled={create.isPending}
          />
        </div>
        <button type="submit" disabled={create.isPending}>
          {create.isPending ? promoTexts.creating : promoTexts.create}
        </button>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
      </form>
      {codes.data === undefined ? (
        codes.isError ? (
          <FetchError message={promoTexts.failed} />
        ) : (
          <p className="analytics-empty">Loading promo codes...</p>
        )
      ) : codes.data.length === 0 ? (
        <p className="analytics-empty">{promoTexts.none}</p>
      ) : (
        <div className="table-scroll">
          <table className="table-stack" aria-labelledby={headingId}>
            <thead>
              <tr>
                <th scope="col">Code</th>
                <th scope="col">Discount</th>
                <th scope="col">Ticket types</th>
                <th scope="col">Uses</th>
                <th scope="col">Status</th>
                {/* the actions' column has no header (an empty th is one without a name) */}
                <td />
              </tr>
            </thead>
            <tbody>
              {codes.data.map((row) => (
                <tr key={row.code}>
                  <td data-label="Code">{row.code}</td>
                  <td data-label="Discount">{offText(row)}</td>
                  <td data-label="Ticket types">{row.ticketTypes ? row.ticketTypes.join(', ') : 'All'}</td>
                  <td data-label="Uses">{usesText(row)}</td>
                  <td data-label="Status">{row.disabled ? 'Disabled' : 'Active'}</td>
                  <td>
                    {!row.disabled && (
                      <button
                        type="button"
                        className="button-secondary"
                        onClick={() => disable.mutate(row.code)}
                        disabled={disable.isPending && disable.variables === row.code}
                      >
                        {promoTexts.disable}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}
