// Money on screen: rupees with the ₹ sign, grouped the Indian way (1,00,000).
const rupeeFormat = new Intl.NumberFormat('en-IN', {
  style: 'currency',
  currency: 'INR',
  maximumFractionDigits: 2,
  minimumFractionDigits: 0,
})

export const formatRupees = (amount: number): string => rupeeFormat.format(amount)
