// Facts of billing (issue 42): an organizer's profile on the stream billing-<organizerId>, the
// platform's booking fee on booking-fee.

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

/**
 * The platform's booking fee on each paid order from now on, as an admin set it (stream
 * booking-fee): paise a ticket and a percent of the tickets' price, both 0 for none, and its GST
 * rate. Until the first, the fee is the deployment's (BOOKING_FEE_* settings).
 */
export type BookingFeeSet = {
  type: 'BookingFeeSet'
  data: { perTicketPaise: number; percent: number; ratePercent: number }
}

export type BillingFact = BillingProfileSet | BookingFeeSet
