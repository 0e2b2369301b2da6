// The one way the web app talks to the REST API (API.md): base /api/v1, JSON, cookies sent,
// the stored token as a Bearer header. A failed call throws an ApiError with the server's words.
import type { ErrorReply } from '../../../contracts/common.ts'
import { takeEarly } from './early.ts'

export const API_BASE = '/api/v1'
export const TOKEN_KEY = 'token'

type Issue = NonNullable<ErrorReply['issues']>[number]

export class ApiError extends Error {
  constructor(
    message: string,
    /** the HTTP status, or 0 when the server could not be reached */
    readonly status: number,
    readonly body: unknown = null,
    readonly issues: Issue[] = [],
  ) {
    super(message)
    this.name = 'ApiError'
  }

  /** the server answered and said no (4xx): its message is meant for people */
  get isRefusal(): boolean {
    return this.status >= 400 && this.status < 500
  }
}

export type RequestOptions = {
  body?: unknown
  /** a token to use instead of the stored one (right after login) */
  token?: string | null
  signal?: AbortSignal
  /** extra request headers (If-Match) */
  headers?: Record<string, string>
}

function storedToken(): string | null {
  try {
    return globalThis.localStorage?.getItem(TOKEN_KEY) ?? null
  } catch {
    return null
  }
}

const messageOf = (body: unknown): string | null =>
  typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string'
    ? (body as { message: string }).message
    : null

const issuesOf = (body: unknown): Issue[] => {
  const issues = typeof body === 'object' && body !== null ? (body as { issues?: unknown }).issues : null
  return Array.isArray(issues) ? (issues as Issue[]) : []
}

/**
 * The server's reply to a call, and when it was asked for: a GET the page asked for before the
 * app's code arrived (api/early.ts) is taken from there, as long as it was asked the same way.
 */
export async function reply(
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<{ response: Response; askedAt: number }> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers }
  const token = options.token === undefined ? storedToken() : options.token
  if (token) headers.Authorization = `Bearer ${token}`
  if (options.body !== undefined) headers['Content-Type'] = 'application/json'

  const early =
    method === 'GET' && !options.headers && !options.signal && options.token === undefined
      ? takeEarly(path, token)
      : undefined
  const askedAt = early?.askedAt ?? performance.now()
  try {
    const response = await (early?.response ??
      fetch(`${API_BASE}${path}`, {
        method,
        headers,
        credentials: 'include',
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: options.signal,
      }))
    return { response, askedAt }
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error
    throw new ApiError('The server could not be reached.', 0)
  }
}

/** A reply's JSON body; an ApiError with the server's words when it is not a success. */
export async function bodyOf<T>(response: Response): Promise<T> {
  const text = await response.text()
  let body: unknown = null
  if (text) {
    try {
      body = JSON.parse(text)
    } catch {
      body = text
    }
  }
  if (!response.ok) {
    throw new ApiError(
      messageOf(body) ?? `Request failed (${response.status}).`,
      response.status,
      body,
      issuesOf(body),
    )
  }
  return body as T
}

export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  return bodyOf<T>((await reply(method, path, options)).response)
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('POST', path, { ...options, body: body ?? {} }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('PUT', path, { ...options, body: body ?? {} }),
  delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
}
