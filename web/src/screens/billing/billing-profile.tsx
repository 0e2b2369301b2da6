// Billing (/organizer/billing, organizers): the name, GSTIN, address, state and invoice prefix
// that the organizer's invoices carry. Checked with the server's own schema on submit; what the
// server refuses is shown at the field it names, until that field changes.
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { BillingBody, type BillingView, MAX_INVOICE_PREFIX } from '../../../../contracts/billing.ts'
import { fetchBillingProfile, saveBillingProfile } from '../../api/billing.ts'
import { checkedBody } from '../../api/field-errors.ts'
import { Fetched } from '../../ui/fetched.tsx'
import { FormError } from '../../ui/field.tsx'
import { FormControl } from '../../ui/form-control.tsx'
import { stateChoices } from '../../ui/gst-states.ts'
import { notify } from '../../ui/toasts.ts'
import { useDraftForm } from '../../ui/use-draft-form.ts'
import { billingTexts } from './billing-texts.ts'
import './billing.css'

const billingProfileKey = ['billing-profile'] as const

type Draft = { legalName: string; gstin: string; address: string; state: string; invoicePrefix: string }

const draftOf = (profile: BillingView | null): Draft => ({
  legalName: profile?.legalName ?? '',
  gstin: profile?.gstin ?? '',
  address: profile?.address ?? '',
  state: profile?.state ?? '',
  invoicePrefix: profile?.invoicePrefix ?? '',
})

/** the draft checked by the server's schema: the body to send, or a message per field */
const checkDraft = (draft: Draft) =>
  checkedBody(BillingBody, { ...draft, gstin: draft.gstin.trim() === '' ? null : draft.gstin })

export function BillingProfileScreen() {
  const profile = useQuery({ queryKey: billingProfileKey, queryFn: fetchBillingProfile })
  return (
    <Fetched
      query={profile}
      failed={(error) => (error instanceof Error ? error.message : billingTexts.loadFailed)}
    >
      {(saved) => <BillingProfileForm saved={saved} />}
    </Fetched>
  )
}

function BillingProfileForm({ saved }: { saved: BillingView | null }) {
  const queryClient = useQueryClient()
  const { draft, set, errors, busy, submit } = useDraftForm({
    initial: () => draftOf(saved),
    check: checkDraft,
    save: saveBillingProfile,
    saved: (profile) => {
      queryClient.setQueryData(billingProfileKey, profile)
      notify.success(billingTexts.saved)
      return draftOf(profile)
    },
    failed: billingTexts.saveFailed,
  })

  const text = (field: Exclude<keyof Draft, 'state' | 'address'>, label: string, extra: object = {}) => (
    <FormControl label={label} error={errors[field]} announce>
      {(control) => (
        <input
          {...control}
          type="text"
          value={draft[field]}
          disabled={busy}
          onChange={(change) => set(field, change.target.value)}
          {...extra}
        />
      )}
    </FormControl>
  )

  return (
    <section className="page form-page billing-page">
      <form className="card form" onSubmit={submit} noValidate aria-busy={busy}>
        <h1>{billingTexts.heading}</h1>
        <p className="form-hint">{billingTexts.intro}</p>
        {text('legalName', billingTexts.legalName, { autoComplete: 'organization', maxLength: 200 })}
        {text('gstin', billingTexts.gstin, {
          autoComplete: 'off',
          maxLength: 15,
          spellCheck: false,
          className: 'billing-gstin',
        })}
        <p className="form-hint">{billingTexts.gstinHint}</p>
        <FormControl label={billingTexts.address} error={errors.address} announce>
          {(control) => (
            <textarea
              {...control}
              rows={3}
              maxLength={500}
              autoComplete="street-address"
              value={draft.address}
              disabled={busy}
              onChange={(change) => set('address', change.target.value)}
            />
          )}
        </FormControl>
        <FormControl label={billingTexts.state} error={errors.state} announce>
          {(control) => (
            <select
              {...control}
              value={draft.state}
              disabled={busy}
              onChange={(change) => set('state', change.target.value)}
            >
              <option value="">{billingTexts.chooseState}</option>
              {stateChoices.map((choice) => (
                <option key={choice.code} value={choice.code}>
                  {choice.label}
                </option>
              ))}
            </select>
          )}
        </FormControl>
        {text('invoicePrefix', billingTexts.invoicePrefix, {
          autoComplete: 'off',
          maxLength: MAX_INVOICE_PREFIX,
          spellCheck: false,
          className: 'billing-prefix',
        })}
        <p className="form-hint">{billingTexts.prefixHint}</p>
        <FormError message={errors.form ?? null} />
        <div className="billing-actions">
          <button type="submit" disabled={busy}>
            {busy ? billingTexts.saving : billingTexts.save}
          </button>
          <Link to="/organizer/invoices">{billingTexts.invoicesLink}</Link>
        </div>
      </form>
    </section>
  )
}
