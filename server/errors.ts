// Typed errors of the domain and the HTTP edge; server/http/errors.ts maps them to replies.
export type Issue = { field: string; message: string }

export type ErrorKind =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'too-large'
  | 'rate-limited'
  | 'unavailable'

export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly details: { issues?: Issue[]; retryAfterSeconds?: number; seats?: string[] } = {},
  ) {
    super(message)
    this.name = 'DomainError'
  }
}

export const invalid = (message: string, issues?: Issue[]) => new DomainError('invalid', message, { issues })
export const unauthenticated = (message = 'Please log in to continue.') =>
  new DomainError('unauthenticated', message)
export const forbidden = (message = 'You are not allowed to do this.') =>
  new DomainError('forbidden', message)
export const notFound = (message: string) => new DomainError('not-found', message)
export const conflict = (message: string) => new DomainError('conflict', message)
/** a 409 naming the seats it is about (issue 40: seats no longer free, or that a plan would move) */
export const seatsConflict = (message: string, seats: string[]) =>
  new DomainError('conflict', message, { seats })
export const tooLarge = (message: string) => new DomainError('too-large', message)
export const rateLimited = (message: string, retryAfterSeconds: number) =>
  new DomainError('rate-limited', message, { retryAfterSeconds })
export const unavailable = (message: string) => new DomainError('unavailable', message)

export const statusOf: Record<ErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'too-large': 413,
  'rate-limited': 429,
  unavailable: 503,
}
