// What a screen shows of a query: the loading indicator until its first answer, the failure's
// message in red (read out) when there is nothing to show, and otherwise what was fetched, also
// after a failed refetch, so a passing failure never blanks what is on screen.
import type { UseQueryResult } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { Loading } from './loading.tsx'

/** a failed fetch's message */
export function FetchError({ message }: { message: string }) {
  return (
    <p className="error-text" role="alert">
      {message}
    </p>
  )
}

const page = (content: ReactNode) => <section className="page">{content}</section>

export function Fetched<T>({
  query,
  loading = <Loading />,
  failed,
  frame,
  children,
}: {
  query: UseQueryResult<T>
  /** shown until the first answer: the full-screen indicator unless told */
  loading?: ReactNode
  /** the message when the first fetch failed */
  failed: string | ((error: unknown) => string)
  /**
   * what surrounds both the content and the failure (a heading, say); without one the content is
   * the whole screen and a failure has a page of its own
   */
  frame?: (content: ReactNode, failed: boolean) => ReactNode
  children: (data: T) => ReactNode
}) {
  if (query.data !== undefined) return frame ? frame(children(query.data), false) : children(query.data)
  if (!query.isError) return loading
  const message = <FetchError message={typeof failed === 'string' ? failed : failed(query.error)} />
  return frame ? frame(message, true) : page(message)
}

/** a failure's own words, or these when it has none worth showing */
export const messageOr =
  (fallback: string) =>
  (error: unknown): string =>
    error instanceof Error && error.message ? error.message : fallback
