// Full-screen loading indicator: a spinner and a pulsing message ('Loading...' unless told).
export function Loading({ message = 'Loading...' }: { message?: string }) {
  return (
    <div className="loading" role="status" aria-live="polite">
      <div className="spinner" aria-hidden="true" />
      <p className="loading-text">{message}</p>
    </div>
  )
}
