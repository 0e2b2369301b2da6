// The repeatable Ticket Types list of the event form: type, price, quantity and GST rate each;
// Remove only while more than one is listed.
import { type TicketTypeName, ticketTypeNames } from '../../../../contracts/catalog.ts'
import { FormControl } from '../../ui/form-control.tsx'
import { TaxRateSelect } from '../../ui/tax-fields.tsx'
import type { FieldErrors, TicketTypeDraft } from './new-event-check.ts'

/** SPEC §9's ticket type choices, offered first; organizers name their own besides (issue 40) */
const typeLabels: Record<(typeof ticketTypeNames)[number], string> = {
  'General Admission': 'General Admission',
  VIP: 'VIP',
}
const OWN_NAME = 'own'
const offered = (type: string) => (ticketTypeNames as readonly string[]).includes(type)

let drafted = 0

/** a new row, of the first type not listed yet */
export function newTicketType(listed: TicketTypeDraft[] = []): TicketTypeDraft {
  const type = ticketTypeNames.find((name) => !listed.some((t) => t.type === name)) ?? ticketTypeNames[0]
  return { key: `ticket-type-${++drafted}`, type, price: '', quantity: '', taxRate: '0' }
}

export function TicketTypesFieldset({
  ticketTypes,
  rates,
  errors,
  disabled,
  onChange,
  onTouch,
}: {
  ticketTypes: TicketTypeDraft[]
  /** the GST rates a type may have (GET /tax-rates) */
  rates: readonly number[]
  /** the messages to show, keyed as the server names fields ('ticketTypes.0.price') */
  errors: FieldErrors
  disabled: boolean
  onChange: (ticketTypes: TicketTypeDraft[]) => void
  /** a row's field was changed or left: '<row key>.price' */
  onTouch: (name: string) => void
}) {
  const update = (key: string, change: Partial<TicketTypeDraft>) => {
    onChange(ticketTypes.map((t) => (t.key === key ? { ...t, ...change } : t)))
    for (const field of Object.keys(change)) onTouch(`${key}.${field}`)
  }
  const left = (key: string, field: keyof TicketTypeDraft) => () => onTouch(`${key}.${field}`)

  return (
    <fieldset className="ticket-types" disabled={disabled}>
      <legend>Ticket Types</legend>
      {errors.ticketTypes && <p className="field-error">{errors.ticketTypes}</p>}
      <ol>
        {ticketTypes.map((ticket, index) => (
          <li key={ticket.key} className="ticket-type-row" aria-label={`Ticket type ${index + 1}`}>
            <FormControl label="Type" error={errors[`ticketTypes.${index}.type`]}>
              {(control) => (
                <select
                  {...control}
                  value={offered(ticket.type) ? ticket.type : OWN_NAME}
                  onChange={(e) =>
                    update(ticket.key, {
                      type: e.target.value === OWN_NAME ? '' : (e.target.value as TicketTypeName),
                    })
                  }
                  onBlur={left(ticket.key, 'type')}
                >
                  {ticketTypeNames.map((name) => (
                    <option key={name} value={name}>
                      {typeLabels[name]}
                    </option>
                  ))}
                  <option value={OWN_NAME}>Another name…</option>
                </select>
              )}
            </FormControl>
            {!offered(ticket.type) && (
              <FormControl label="Type name">
                {(control) => (
                  <input
                    {...control}
                    type="text"
                    maxLength={40}
                    placeholder="Stalls, Balcony, Early bird…"
                    value={ticket.type}
                    onChange={(e) => update(ticket.key, { type: e.target.value })}
                    onBlur={left(ticket.key, 'type')}
                  />
                )}
              </FormControl>
            )}
            <FormControl label="Price" error={errors[`ticketTypes.${index}.price`]}>
              {(control) => (
                <input
                  {...control}
                  type="number"
                  min={0}
                  step="0.01"
                  inputMode="decimal"
                  value={ticket.price}
                  onChange={(e) => update(ticket.key, { price: e.target.value })}
                  onBlur={left(ticket.key, 'price')}
                />
              )}
            </FormControl>
            <FormControl label="Quantity" error={errors[`ticketTypes.${index}.quantity`]}>
              {(control) => (
                <input
                  {...control}
                  type="number"
                  min={1}
                  step={1}
                  inputMode="numeric"
                  value={ticket.quantity}
                  onChange={(e) => update(ticket.key, { quantity: e.target.value })}
                  onBlur={left(ticket.key, 'quantity')}
                />
              )}
            </FormControl>
            <TaxRateSelect
              value={ticket.taxRate}
              rates={rates}
              error={errors[`ticketTypes.${index}.taxRate`]}
              onChange={(taxRate) => update(ticket.key, { taxRate })}
              onBlur={left(ticket.key, 'taxRate')}
            />
            {ticketTypes.length > 1 && (
              <button
                type="button"
                className="button-secondary"
                onClick={() => onChange(ticketTypes.filter((t) => t.key !== ticket.key))}
              >
                Remove
              </button>
            )}
          </li>
        ))}
      </ol>
      <button
        type="button"
        className="button-secondary"
        onClick={() => onChange([...ticketTypes, newTicketType(ticketTypes)])}
      >
        Add Ticket Type
      </button>
    </fieldset>
  )
}
