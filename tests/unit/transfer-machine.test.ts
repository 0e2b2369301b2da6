// The transfer machine without React or a server: the call and the way to the dashboard are fakes.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor, fromPromise } from 'xstate'
import { TRANSFER_REDIRECT_MS, transferMachine, transferMessages } from '../../web/src/machines/transfer.ts'

const refusal = (status: number, message: string) => Object.assign(new Error(message), { status })

function startTransfer(
  transfer: (input: {
    ticketId: string
    newAttendeeEmail: string
  }) => Promise<{ message?: string }> = async () => ({
    message: 'Ticket transferred successfully!',
  }),
) {
  const goToDashboard = vi.fn()
  const call = vi.fn(transfer)
  const machine = transferMachine.provide({
    actors: { transfer: fromPromise(({ input }) => call(input)) },
    actions: { goToDashboard: () => goToDashboard() },
  })
  const actor = createActor(machine, { input: { ticketId: 'ticket-1' } }).start()
  return { actor, call, goToDashboard }
}

const submit = { type: 'SUBMIT', email: ' friend@example.com ' } as const

describe('transfer machine', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('starts idle, ready to submit', () => {
    const { actor } = startTransfer()
    expect(actor.getSnapshot().value).toBe('idle')
    expect(actor.getSnapshot().can(submit)).toBe(true)
  })

  it('transfers, shows the message and goes to the dashboard 500 ms later', async () => {
    const { actor, call, goToDashboard } = startTransfer()
    actor.send(submit)
    expect(actor.getSnapshot().value).toBe('submitting')
    await vi.advanceTimersByTimeAsync(0)

    expect(call).toHaveBeenCalledWith({ ticketId: 'ticket-1', newAttendeeEmail: 'friend@example.com' })
    expect(actor.getSnapshot().value).toBe('success')
    expect(actor.getSnapshot().context.message).toBe('Ticket transferred successfully!')
    expect(actor.getSnapshot().can(submit)).toBe(false)

    await vi.advanceTimersByTimeAsync(TRANSFER_REDIRECT_MS - 1)
    expect(goToDashboard).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    expect(goToDashboard).toHaveBeenCalledOnce()
    expect(actor.getSnapshot().status).toBe('done')
  })

  it("shows the server's message when it refuses (an unknown e-mail), and lets the owner retry", async () => {
    const { actor, call, goToDashboard } = startTransfer(async () => {
      throw refusal(404, 'No account found with that email.')
    })
    actor.send(submit)
    await vi.advanceTimersByTimeAsync(0)
    expect(actor.getSnapshot().value).toBe('error')
    expect(actor.getSnapshot().context.error).toBe('No account found with that email.')
    await vi.advanceTimersByTimeAsync(1000)
    expect(goToDashboard).not.toHaveBeenCalled()

    expect(actor.getSnapshot().can(submit)).toBe(true)
    actor.send({ type: 'EDIT' })
    expect(actor.getSnapshot().value).toBe('idle')
    expect(actor.getSnapshot().context.error).toBeNull()
    actor.send(submit)
    expect(call).toHaveBeenCalledTimes(2)
  })

  it('falls back to the general message when the call fails without a reason', async () => {
    const { actor } = startTransfer(async () => {
      throw new TypeError('Failed to fetch')
    })
    actor.send(submit)
    await vi.advanceTimersByTimeAsync(0)
    expect(actor.getSnapshot().context.error).toBe('An error occurred while transferring the ticket.')
  })

  it('uses the general success words when the server says nothing', async () => {
    const { actor } = startTransfer(async () => ({}))
    actor.send(submit)
    await vi.advanceTimersByTimeAsync(0)
    expect(actor.getSnapshot().context.message).toBe(transferMessages.success)
  })

  it('does not submit twice while a transfer is under way', () => {
    const { actor, call } = startTransfer(() => new Promise(() => {}))
    actor.send(submit)
    expect(actor.getSnapshot().can(submit)).toBe(false)
    actor.send(submit)
    expect(call).toHaveBeenCalledOnce()
  })

  it('asks for an e-mail and calls nothing when it is empty', () => {
    const { actor, call } = startTransfer()
    actor.send({ type: 'SUBMIT', email: '   ' })
    expect(actor.getSnapshot().value).toBe('error')
    expect(actor.getSnapshot().context.error).toBe('Please enter a valid email.')
    expect(call).not.toHaveBeenCalled()
  })
})
