// The booking fee (/admin/booking-fee, admins): what the platform charges on each paid order from
// now on, rupees a ticket and a percent of the price, with its GST rate. Checked with the server's
// own schema on submit; what the server refuses is shown at the field it names. Orders already held
// keep the fee they were priced with.
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { BookingFeeBody, type BookingFeeView, feeSummary } from '../../../../contracts/billing.ts'
import { fetchBookingFee, saveBookingFee, taxRatesQuery } from '../../api/billing.ts'
import { checkedBody } from '../../api/field-errors.ts'
import { Fetched } from '../../ui/fetched.tsx'
import { FormError } from '../../ui/field.tsx'
import { FormControl } from '../../ui/form-control.tsx'
import { notify } from '../../ui/toasts.ts'
import { useDraftForm } from '../../ui/use-draft-form.ts'
import { feeTexts } from './billing-texts.ts'
import './billing.css'

const bookingFeeKey = ['booking-fee'] as const

type Draft = { perTicket: string; percent: string; taxRate: string }

const draftOf = (fee: BookingFeeView): Draft => ({
  perTicket: String(fee.perTicket),
  percent: String(fee.percent),
  taxRate: String(fee.taxRate),
})

/** a field's text as the number the API takes (an empty one is no number) */
const numberOf = (text: string) => (text.trim() === '' ? Number.NaN : Number(text))

/** the draft checked by the server's schema: the body to send, or a message per field */
const checkDraft = (draft: Draft) =>
  checkedBody(BookingFeeBody, {
    perTicket: numberOf(draft.perTicket),
    percent: numberOf(draft.percent),
    taxRate: numberOf(draft.taxRate),
  })

export function BookingFeeScreen() {
  const fee = useQuery({ queryKey: bookingFeeKey, queryFn: fetchBookingFee })
  const rates = useQuery(taxRatesQuery())
  return (
    <Fetched query={fee} failed={(error) => (error instanceof Error ? error.message : feeTexts.loadFailed)}>
      {(saved) => <BookingFeeForm saved={saved} rates={rates.data?.rates ?? [saved.taxRate]} />}
    </Fetched>
  )
}

function BookingFeeForm({ saved, rates }: { saved: BookingFeeView; rates: readonly number[] }) {
  const queryClient = useQueryClient()
  const { draft, set, errors, busy, submit } = useDraftForm({
    initial: () => draftOf(saved),
    check: checkDraft,
    save: saveBookingFee,
    saved: async (fee) => {
      // the screen shows the fee charged now from this query's data
      queryClient.setQueryData(bookingFeeKey, fee)
      // the checkout's breakdown and the event form read the fee from /tax-rates
      await queryClient.invalidateQueries({ queryKey: ['tax-rates'] })
      notify.success(feeTexts.saved)
      return draftOf(fee)
    },
    failed: feeTexts.saveFailed,
  })

  const amount = (field: 'perTicket' | 'percent', label: string, step: string) => (
    <FormControl label={label} error={errors[field]} announce>
      {(control) => (
        <input
          {...control}
          type="number"
          inputMode="decimal"
          min={0}
          step={step}
          value={draft[field]}
          disabled={busy}
          onChange={(change) => set(field, change.target.value)}
        />
      )}
    </FormControl>
  )
  const choices = rates.includes(Number(draft.taxRate)) ? rates : [...rates, Number(draft.taxRate)]

  return (
    <section className="page form-page billing-page">
      <form className="card form" onSubmit={submit} noValidate aria-busy={busy}>
        <h1>{feeTexts.heading}</h1>
        <p className="form-hint">{feeTexts.intro}</p>
        <p className="booking-fee-now" data-testid="booking-fee-now">
          {feeTexts.chargedNow(feeSummary(saved, saved.taxed))}{' '}
          {saved.updatedAt ? feeTexts.setOn(new Date(saved.updatedAt)) : feeTexts.fromSettings}
        </p>
        {amount('perTicket', feeTexts.perTicket, '0.01')}
        {amount('percent', feeTexts.percent, '0.01')}
        <FormControl label={feeTexts.taxRate} error={errors.taxRate} announce>
          {(control) => (
            <select
              {...control}
              value={draft.taxRate}
              disabled={busy}
              onChange={(change) => set('taxRate', change.target.value)}
            >
              {choices.map((rate) => (
                <option key={rate} value={String(rate)}>
                  {rate}%
                </option>
              ))}
            </select>
          )}
        </FormControl>
        <p className="form-hint">{feeTexts.hint}</p>
        <FormError message={errors.form ?? null} />
        <div className="billing-actions">
          <button type="submit" disabled={busy}>
            {busy ? feeTexts.saving : feeTexts.save}
          </button>
          <Link to="/admin/invoices">{feeTexts.invoicesLink}</Link>
        </div>
      </form>
    </section>
  )
}
