// When a sale opens, as the event page and the booking page say it (issue 41).

export const onSaleText = (when: string) => `On sale ${when}`

/** a ticket type on sale later than its event */
export const typeOnSaleText = (ticketType: string, when: string) => `${ticketType}: on sale ${when}`
