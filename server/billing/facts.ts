// Facts of an organizer's billing (issue 42), on the stream billing-<organizerId>.

/** the organizer's billing profile as given: no GSTIN, no tax charged (a bill of supply) */
export type BillingProfileSet = {
  type: 'BillingProfileSet'
  data: {
    organizerId: string
    legalName: string
    gstin: string | null
    address: string
    state: string
    invoicePrefix: string
  }
}

export type BillingFact = BillingProfileSet
