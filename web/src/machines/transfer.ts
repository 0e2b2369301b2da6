// The ticket transfer as a state machine (SPEC §4): idle → submitting → success (its message, then
// the dashboard after 500 ms) or error (the server's words, or a general one), from which the
// owner may try again. The screen supplies the call and the way to the dashboard.
import { assign, fromPromise, setup } from 'xstate'

export const transferMessages = {
  failed: 'An error occurred while transferring the ticket.',
  success: 'Ticket transferred successfully!',
  email: 'Please enter a valid email.',
} as const

/** SPEC §9: the dashboard follows a successful transfer after this long */
export const TRANSFER_REDIRECT_MS = 500

export type TransferRequest = { ticketId: string; newAttendeeEmail: string }

export type TransferContext = {
  ticketId: string
  email: string
  message: string | null
  error: string | null
}

export type TransferEvent = { type: 'SUBMIT'; email: string } | { type: 'EDIT' }

/** the server's message when it refused (4xx); anything else gets the general text */
const refusalMessage = (error: unknown): string | null => {
  if (typeof error !== 'object' || error === null) return null
  const { status, message } = error as { status?: unknown; message?: unknown }
  return typeof status === 'number' && status >= 400 && status < 500 && typeof message === 'string'
    ? message
    : null
}

export const transferMachine = setup({
  types: {
    context: {} as TransferContext,
    events: {} as TransferEvent,
    input: {} as { ticketId: string },
  },
  actors: {
    transfer: fromPromise<{ message?: string }, TransferRequest>(() =>
      Promise.reject(new Error('transfer was not provided')),
    ),
  },
  actions: {
    goToDashboard: () => {},
    remember: assign({
      email: ({ event }) => (event.type === 'SUBMIT' ? event.email.trim() : ''),
      message: null,
      error: null,
    }),
  },
  guards: {
    emailMissing: ({ event }) => event.type === 'SUBMIT' && event.email.trim() === '',
  },
  delays: { redirect: TRANSFER_REDIRECT_MS },
}).createMachine({
  id: 'transfer',
  initial: 'idle',
  context: ({ input }) => ({ ticketId: input.ticketId, email: '', message: null, error: null }),
  states: {
    idle: {
      on: {
        SUBMIT: [
          { guard: 'emailMissing', target: 'error', actions: assign({ error: transferMessages.email }) },
          { target: 'submitting', actions: 'remember' },
        ],
      },
    },
    submitting: {
      invoke: {
        src: 'transfer',
        input: ({ context }) => ({ ticketId: context.ticketId, newAttendeeEmail: context.email }),
        onDone: {
          target: 'success',
          actions: assign({ message: ({ event }) => event.output.message || transferMessages.success }),
        },
        onError: {
          target: 'error',
          actions: assign({ error: ({ event }) => refusalMessage(event.error) ?? transferMessages.failed }),
        },
      },
    },
    success: {
      after: { redirect: { target: 'redirected', actions: 'goToDashboard' } },
    },
    redirected: { type: 'final' },
    error: {
      on: {
        SUBMIT: [
          { guard: 'emailMissing', target: 'error', actions: assign({ error: transferMessages.email }) },
          { target: 'submitting', actions: 'remember' },
        ],
        EDIT: { target: 'idle', actions: assign({ error: null }) },
      },
    },
  },
})
