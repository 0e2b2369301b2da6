// What the event page says of a sale's time and its waiting room (issue 41), one place for each
// state of a buyer's place in line; the refusals' words come from contracts/queue.ts.
import type { QueuePlace } from '../../../../contracts/queue.ts'
import { formatWait } from '../../ui/waits.ts'

export const lineTexts = {
  heading: 'Waiting room',
  join: 'Join the line',
  joining: 'Joining...',
  logIn: 'Log in to join the line',
  joinFailed: 'Could not join the line.',
  room: 'This sale has a waiting room: join the line for a place, and book once you are admitted.',
  openRoom: 'The sale is open. Join the line for a place, and book once you are admitted.',
  expired: 'Your admission has run out: the tickets you did not book went to the next in line.',
  timeLeft: 'Time left to book:',
  laterTypes: 'Ticket types on sale later',
  paused: 'The organizer has paused admissions for now: you keep your place.',
} as const

export { onSaleText, typeOnSaleText } from '../../ui/sale-texts.ts'

export const preQueueText = (when: string) =>
  `You are in the line. When the sale opens at ${when}, everyone who joined before then gets a random place.`

/** a waiting place: the place, how many are ahead, the estimated wait */
export function waitingTexts(place: QueuePlace): { place: string; ahead: string; wait: string } {
  const position = place.position ?? 0
  const ahead = place.ahead ?? Math.max(0, position - 1)
  return {
    place: `You are number ${position} in line.`,
    ahead:
      ahead === 0
        ? 'Nobody is ahead of you.'
        : ahead === 1
          ? '1 person is ahead of you.'
          : `${ahead} people are ahead of you.`,
    wait: place.paused
      ? lineTexts.paused
      : place.etaSeconds === undefined
        ? 'Estimated wait: not known yet.'
        : `Estimated wait: ${formatWait(place.etaSeconds)}.`,
  }
}

export const admittedText = (until: string) =>
  `It is your turn: you are admitted and may book now. Your admission lasts until ${until}.`
