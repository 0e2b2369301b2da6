// The wall clock of an event in TIMEZONE as an instant: shared with the web app, which writes every
// event time in the event's zone (contracts/wall-clock.ts).
export { instantIn } from '../contracts/wall-clock.ts'
