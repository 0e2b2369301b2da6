// Money to the paisa, for bills (the order's breakdown, invoices): ₹1,499.00, grouped the Indian
// way. Prices elsewhere drop the paise when there are none (rupees.ts).
const exactFormat = new Intl.NumberFormat('en-IN', {
  style: 'currency',
  currency: 'INR',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
})

export const formatAmount = (rupees: number): string => exactFormat.format(rupees)

/** rupees (up to two decimals, as the API gives them) in whole paise, to add without drift */
export const paiseOf = (rupees: number): number => Math.round(rupees * 100)
