// A ticket's short number, enough to tell two orders apart on a card, at the door or on the
// organizer's map: the last 8 characters of its id (the random part), upper-case.
export const ticketNumber = (ticketId: string): string => ticketId.slice(-8).toUpperCase()
