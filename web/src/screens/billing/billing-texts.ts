// The words of the billing screens: the organizer's billing profile and its invoices, the
// platform's booking fee.
export const billingTexts = {
  heading: 'Billing',
  intro: 'What your invoices say of you. Tickets sold before this is saved get no invoice.',
  legalName: 'Legal name',
  gstin: 'GSTIN (optional)',
  gstinHint:
    'Without a GSTIN no GST is charged on your tickets, and bills of supply are issued instead of tax invoices.',
  address: 'Address',
  state: 'State',
  chooseState: 'Choose a state',
  invoicePrefix: 'Invoice prefix',
  prefixHint: 'Up to 5 letters or digits, at the start of each invoice number.',
  save: 'Save',
  saving: 'Saving...',
  saved: 'Billing profile saved.',
  saveFailed: 'Could not save the billing profile.',
  loadFailed: 'Could not load the billing profile.',
  invoicesLink: 'Invoices',
  billingLink: 'Billing',
} as const

export const feeTexts = {
  heading: 'Booking fee',
  intro:
    'What the platform charges on each paid order from now on, invoiced by the platform apart from the tickets. Orders already held keep the fee they were priced with.',
  chargedNow: (summary: string) => `Charged now: ${summary}.`,
  setOn: (at: Date) =>
    `Set by an admin on ${at.toLocaleString('en-IN', { dateStyle: 'medium', timeStyle: 'short' })}.`,
  fromSettings: "From the deployment's settings.",
  perTicket: 'Fee per ticket (₹)',
  percent: 'Percent of the price',
  taxRate: 'GST rate on the fee',
  hint: 'Both 0: no booking fee.',
  save: 'Save',
  saving: 'Saving...',
  saved: 'Booking fee saved.',
  saveFailed: 'Could not save the booking fee.',
  loadFailed: 'Could not load the booking fee.',
  invoicesLink: 'Booking fee invoices',
} as const

export const myInvoiceTexts = {
  heading: 'Your invoices',
  /** the table's name, as a region that scrolls sideways on a phone */
  table: 'Your invoices and credit notes',
  registrationsLink: 'Your Registrations',
  event: 'Event',
  issuedBy: 'Issued by',
  fee: 'booking fee',
  file: 'PDF',
  pdf: 'PDF',
  downloadLabel: (number: string) => `Download ${number} as PDF`,
  downloading: 'Downloading...',
  downloadFailed: 'The document could not be downloaded.',
  loadFailed: 'Could not load your invoices.',
  empty: 'No invoices yet: a paid ticket’s invoice appears here.',
  showMore: 'Show more invoices',
  loadingMore: 'Loading more invoices...',
} as const

export const invoiceTexts = {
  heading: 'Invoices',
  platformHeading: 'Booking fee invoices',
  from: 'From',
  to: 'To',
  download: 'Download CSV',
  downloading: 'Downloading...',
  downloadFailed: 'The CSV could not be downloaded.',
  loadFailed: 'Could not load the invoices.',
  empty: 'No invoices or credit notes in these dates.',
  caption: (from: string, to: string) => `Invoices and credit notes from ${from} to ${to}`,
  badRange: 'The first day must not be after the last.',
  totals: 'Total',
  columns: {
    number: 'Number',
    date: 'Date',
    kind: 'Kind',
    buyer: 'Buyer',
    placeOfSupply: 'Place of supply',
    taxableValue: 'Taxable value',
    cgst: 'CGST',
    sgst: 'SGST',
    igst: 'IGST',
    total: 'Total',
  },
  kinds: {
    'tax-invoice': 'Tax invoice',
    'bill-of-supply': 'Bill of supply',
    'credit-note': 'Credit note',
  },
  noProfile: 'Save your billing profile first: invoices carry it.',
} as const
