// The booking fee (/admin/booking-fee, admins): what the platform charges on each paid order from
// now on, rupees a ticket and a percent of the price, with its GST rate. Checked with the server's
// own schema on submit; what the server refuses is shown at the field it names. Orders already held
// keep the fee they were priced with.
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import { BookingFeeBody, type BookingFeeView, feeSummary } from '../../../../contracts/billing.ts'
import { fetchBookingFee, fetchTaxRates, saveBookingFee } from '../../api/billing.ts'
import { checkedBody, fieldErrorsOf } from '../../api/field-errors.ts'
import { Fetched } from '../../ui/fetched.tsx'
import { FormError } from '../../ui/field.tsx'
import { FormControl } from '../../ui/form-control.tsx'
import { notify } from '../../ui/toasts.ts'
import { feeTexts } from './billing-texts.ts'
import './billing.css'

const bookingFeeKey = ['booking-fee'] as const

type Draft = { perTicket: string; percent: string; taxRate: string }
type Errors = Partial<Record<keyof Draft | 'form', string>>

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
  const rates = useQuery({ queryKey: ['tax-rates'], queryFn: fetchTaxRates })
  return (
    <Fetched query={fee} failed={(error) => (error instanceof Error ? error.message : feeTexts.loadFailed)}>
      {(saved) => <BookingFeeForm saved={saved} rates={rates.data?.rates ?? [saved.taxRate]} />}
    </Fetched>
  )
}

function BookingFeeForm({ saved, rates }: { saved: BookingFeeView; rates: readonly number[] }) {
  const queryClient = useQueryClient()
  const [current, setCurrent] = useState(saved)
  const [draft, setDraft] = useState<Draft>(() => draftOf(saved))
  const [errors, setErrors] = useState<Errors>({})
  const [busy, setBusy] = useState(false)

  const set = (field: keyof Draft, value: string) => {
    setDraft((previous) => ({ ...previous, [field]: value }))
    setErrors(({ [field]: _changed, form: _form, ...others }) => others)
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (busy) return
    const checked = checkDraft(draft)
    if (!checked.ok) {
      setErrors(checked.errors)
      return
    }
    setBusy(true)
    setErrors({})
    try {
      const fee = await saveBookingFee(checked.body)
      queryClient.setQueryData(bookingFeeKey, fee)
      // the checkout's breakdown and the event form read the fee from /tax-rates
      await queryClient.invalidateQueries({ queryKey: ['tax-rates'] })
      setCurrent(fee)
      setDraft(draftOf(fee))
      notify.success(feeTexts.saved)
    } catch (error) {
      setErrors(fieldErrorsOf(error) as Errors)
      notify.error(feeTexts.saveFailed)
    } finally {
      setBusy(false)
    }
  }

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
          {feeTexts.chargedNow(feeSummary(current))}{' '}
          {current.updatedAt ? feeTexts.setOn(new Date(current.updatedAt)) : feeTexts.fromSettings}
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
