// The GST fields of an event (issue 42), on its creation and its edit: the state where it is held
// (the place of supply, which decides CGST + SGST or IGST), whether its prices include GST, and a
// GST rate per ticket type, from the rates the platform allows (GET /tax-rates).
import { useQuery } from '@tanstack/react-query'
import { DEFAULT_GST_RATES } from '../../../contracts/billing.ts'
import { taxRatesQuery } from '../api/billing.ts'
import { type ControlProps, FormControl } from './form-control.tsx'
import { stateChoices } from './gst-states.ts'

export const taxTexts = {
  state: 'State (GST)',
  noState: 'None',
  pricesIncludeTax: 'Prices include GST',
  taxRate: 'GST rate',
} as const

/** the GST rates a ticket type may have: the server's, or the usual ones until it answers */
export function useTaxRates(): readonly number[] {
  const rates = useQuery(taxRatesQuery())
  return rates.data?.rates ?? DEFAULT_GST_RATES
}

/** "18%": a rate as the select shows it */
export const rateLabel = (rate: number): string => `${rate}%`

export function VenueStateSelect({
  value,
  error,
  disabled,
  onChange,
  onBlur,
}: {
  value: string
  error?: string | undefined
  disabled?: boolean
  onChange(code: string): void
  onBlur?(): void
}) {
  return (
    <FormControl label={taxTexts.state} error={error}>
      {(control) => (
        <select
          {...control}
          value={value}
          disabled={disabled}
          onChange={(change) => onChange(change.target.value)}
          onBlur={onBlur}
        >
          <option value="">{taxTexts.noState}</option>
          {stateChoices.map((choice) => (
            <option key={choice.code} value={choice.code}>
              {choice.label}
            </option>
          ))}
        </select>
      )}
    </FormControl>
  )
}

export function PricesIncludeTaxCheckbox({
  checked,
  disabled,
  onChange,
}: {
  checked: boolean
  disabled?: boolean
  onChange(checked: boolean): void
}) {
  return (
    <div className="field field-checkbox">
      <label>
        <input
          type="checkbox"
          checked={checked}
          disabled={disabled}
          onChange={(change) => onChange(change.target.checked)}
        />{' '}
        {taxTexts.pricesIncludeTax}
      </label>
    </div>
  )
}

/** the choices of a GST rate; a rate the list lacks (set before the list changed) stays offered */
export function TaxRateOptions({ value, rates }: { value: string; rates: readonly number[] }) {
  const offered = rates.some((rate) => String(rate) === value) ? rates : [...rates, Number(value)]
  return offered.map((rate) => (
    <option key={rate} value={String(rate)}>
      {rateLabel(rate)}
    </option>
  ))
}

/** a ticket type's GST rate */
export function TaxRateSelect({
  value,
  rates,
  error,
  disabled,
  onChange,
  onBlur,
}: {
  value: string
  rates: readonly number[]
  error?: string | undefined
  disabled?: boolean
  onChange(rate: string): void
  onBlur?(): void
}) {
  return (
    <FormControl label={taxTexts.taxRate} error={error}>
      {(control: ControlProps) => (
        <select
          {...control}
          value={value}
          disabled={disabled}
          onChange={(change) => onChange(change.target.value)}
          onBlur={onBlur}
        >
          <TaxRateOptions value={value} rates={rates} />
        </select>
      )}
    </FormControl>
  )
}
