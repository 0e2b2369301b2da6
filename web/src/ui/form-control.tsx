// A labelled form control with the message that concerns it (the form's own check or the server's
// issues), tied to it for assistive technology: found by its label, marked invalid, described by
// its message. The control itself is the caller's (an input, a select, a textarea).
import { type ReactNode, useId } from 'react'

export type ControlProps = { id: string; 'aria-invalid': boolean; 'aria-describedby'?: string }

export function FormControl({
  label,
  error,
  announce = false,
  children,
}: {
  label: string
  error?: string | null | undefined
  /**
   * read the message out when it appears: for messages that come with a submit, not for those
   * that come and go as the person types
   */
  announce?: boolean
  children: (control: ControlProps) => ReactNode
}) {
  const id = useId()
  const errorId = `${id}-error`
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-invalid': Boolean(error), ...(error ? { 'aria-describedby': errorId } : {}) })}
      {error && (
        <p id={errorId} className="field-error" role={announce ? 'alert' : undefined}>
          {error}
        </p>
      )}
    </div>
  )
}
