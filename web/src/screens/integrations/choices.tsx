// A group of checkboxes or radios with its legend and the message that concerns the group, and one
// choice with a plain line of what it means (the API tokens' and the webhooks' forms).
import { type ReactNode, useId } from 'react'

/** a group of checkboxes or radios with its legend, and the message that concerns the group */
export function Choices(props: { legend: string; error?: string | undefined; children: ReactNode }) {
  const errorId = useId()
  return (
    <fieldset className="api-tokens-choices" aria-describedby={props.error ? errorId : undefined}>
      <legend>{props.legend}</legend>
      {props.children}
      {props.error && (
        <p id={errorId} className="field-error" role="alert">
          {props.error}
        </p>
      )}
    </fieldset>
  )
}

export function Choice(props: {
  label: string
  hint?: string
  type?: 'checkbox' | 'radio'
  name?: string
  checked: boolean
  disabled: boolean
  onChange(on: boolean): void
}) {
  const id = useId()
  const hintId = useId()
  return (
    <div className="api-tokens-choice">
      <input
        id={id}
        type={props.type ?? 'checkbox'}
        name={props.name}
        checked={props.checked}
        disabled={props.disabled}
        aria-describedby={props.hint ? hintId : undefined}
        onChange={(input) => props.onChange(input.target.checked)}
      />
      <label htmlFor={id}>{props.label}</label>
      {props.hint && (
        <span id={hintId} className="api-tokens-choice-hint">
          {props.hint}
        </span>
      )}
    </div>
  )
}
