// A refused save's messages, each at the field it names (the billing and API token forms).
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
