// Previous / Next through the pages of a list, with where one is ('Page 2 of 40', '26–50 of 1,000').
const count = new Intl.NumberFormat('en-IN')

export function Pager({
  label,
  page,
  limit,
  total,
  onPage,
}: {
  /** what is paged, for the navigation's name ('Pages of events') */
  label: string
  page: number
  limit: number
  total: number
  onPage: (page: number) => void
}) {
  const pages = Math.max(1, Math.ceil(total / limit))
  if (total <= limit && page === 1) return null
  const first = total === 0 ? 0 : (page - 1) * limit + 1
  const last = Math.min(total, page * limit)
  return (
    <nav className="pager" aria-label={label}>
      <button
        type="button"
        className="button-secondary"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
      >
        Previous
      </button>
      <span className="pager-where" aria-live="polite">
        Page {page} of {pages} ({count.format(first)}–{count.format(last)} of {count.format(total)})
      </span>
      <button
        type="button"
        className="button-secondary"
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
      >
        Next
      </button>
    </nav>
  )
}
