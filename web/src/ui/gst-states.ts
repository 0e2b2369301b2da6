// The GST states as forms offer them (the billing profile, an event's venue): "27 Maharashtra",
// in the order of their codes.
import { GST_STATES } from '../../../contracts/billing.ts'

export type StateChoice = { code: string; label: string }

/** a state by its code: "27 Maharashtra"; the code alone when it names no state */
export const stateLabel = (code: string): string => (GST_STATES[code] ? `${code} ${GST_STATES[code]}` : code)

export const stateChoices: readonly StateChoice[] = Object.keys(GST_STATES)
  .sort()
  .map((code) => ({ code, label: stateLabel(code) }))
