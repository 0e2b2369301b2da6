// What a child process holds in memory once its garbage is collected, asked over the V8 inspector
// the child opens when started with INSPECT_OPTIONS in its NODE_OPTIONS. Its resident size alone
// says little: V8 sizes its young generation and old space to the load and gives pages back
// lazily, so a flood can add 50 MB of RSS that a collection frees (a CI run on a faster machine
// showed it). The heap after a full collection is what a leak would leave behind.
import WebSocket from 'ws'
import type { Proc } from './faults.ts'
import { waitFor } from './faults.ts'

/** NODE_OPTIONS for a child to be asked: the inspector on a free port of the loopback only. */
export const INSPECT_OPTIONS = '--inspect=127.0.0.1:0'

export type HeapFigures = {
  /** JavaScript objects still reachable, in MB */
  heapMB: number
  /** memory held by C++ objects bound to JavaScript ones (buffers among them), in MB */
  externalMB: number
}

export type Inspected = {
  /** Collects the garbage (twice, for objects freed by the first's finalizers) and measures. */
  heapAfterCollection(): Promise<HeapFigures>
  close(): void
}

/** Connects to the inspector `proc` announced on its output. */
export async function inspect(proc: Proc): Promise<Inspected> {
  const announced = () => /Debugger listening on (ws:\/\/\S+)/.exec(proc.output())?.[1]
  await waitFor(() => announced() !== undefined, 20_000, 'the inspector address')
  const address = announced() as string
  const socket = new WebSocket(address)
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve())
    socket.once('error', reject)
  })
  let next = 0
  const waiting = new Map<number, (reply: { result?: unknown; error?: { message: string } }) => void>()
  socket.on('message', (data) => {
    const reply = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: { message: string } }
    if (reply.id !== undefined) waiting.get(reply.id)?.(reply)
  })
  const call = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve, reject) => {
      const id = ++next
      waiting.set(id, (reply) => {
        waiting.delete(id)
        if (reply.error) reject(new Error(`${method}: ${reply.error.message}`))
        else resolve(reply.result)
      })
      socket.send(JSON.stringify({ id, method, params }))
    })
  return {
    async heapAfterCollection() {
      await call('HeapProfiler.collectGarbage')
      await call('HeapProfiler.collectGarbage')
      const { result } = (await call('Runtime.evaluate', {
        expression: 'JSON.stringify(process.memoryUsage())',
        returnByValue: true,
      })) as { result: { value: string } }
      const usage = JSON.parse(result.value) as NodeJS.MemoryUsage
      return { heapMB: usage.heapUsed / 2 ** 20, externalMB: usage.external / 2 ** 20 }
    },
    close: () => socket.close(),
  }
}
