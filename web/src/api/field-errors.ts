// A refused save's messages, each at the field it names (the billing and API token forms), and a
// draft checked by the server's own schema before it is sent.
import * as v from 'valibot'
import { ApiError } from './client.ts'

/**
 * The field messages of a refused save, keyed by field: the server names them under `issues` (the
 * API's convention) or `errors`; a message that names no field is the form's own ('form').
 */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError)) return { form: error instanceof Error ? error.message : String(error) }
  const listed = [
    ...error.issues,
    ...(typeof error.body === 'object' &&
    error.body !== null &&
    Array.isArray((error.body as { errors?: unknown }).errors)
      ? ((error.body as { errors: unknown[] }).errors as { field?: unknown; message?: unknown }[])
      : []),
  ]
  const errors: Record<string, string> = {}
  for (const issue of listed) {
    if (typeof issue.message !== 'string') continue
    const field = typeof issue.field === 'string' && issue.field ? issue.field : 'form'
    errors[field] ??= issue.message
  }
  if (Object.keys(errors).length === 0) errors.form = error.message
  return errors
}

/**
 * A draft checked by the server's schema: the body to send, or the first message of each field it
 * names ('form' for one that names none).
 */
export function checkedBody<S extends v.GenericSchema>(
  schema: S,
  input: unknown,
): { ok: true; body: v.InferOutput<S> } | { ok: false; errors: Record<string, string> } {
  const checked = v.safeParse(schema, input)
  if (checked.success) return { ok: true, body: checked.output }
  const errors: Record<string, string> = {}
  for (const issue of checked.issues) errors[v.getDotPath(issue) ?? 'form'] ??= issue.message
  return { ok: false, errors }
}
