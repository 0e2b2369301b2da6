// An honest stand-in for a screen that a later release brings: its route and guard exist already.
import type { ReactNode } from 'react'

export function NotAvailable({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <section className="page not-available">
      <h1>{title}</h1>
      <p>This page is not available yet.</p>
      {children}
    </section>
  )
}
