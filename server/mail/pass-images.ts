// Ticket passes drawn as QR code images for the mail (issue 16), off the event loop: one worker
// thread (piscina), started when a mail first needs it and stopped after a minute unused, so the
// requests of a sale or a door are never held up by drawing (a confirmation of 10 admissions is
// 10 images). pass-image-worker.mjs draws them.
import { Piscina } from 'piscina'

export type PassImages = {
  /** the PNG of each code, in order */
  draw(codes: readonly string[]): Promise<Buffer[]>
  close(): Promise<void>
}

/** the drawing thread's heap: its young generation (where each image's garbage lives) and the rest */
export const PASS_THREAD_LIMITS = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 48 }

export function passImages(): PassImages {
  let pool: Piscina | null = null
  return {
    async draw(codes) {
      if (codes.length === 0) return []
      if (!pool) {
        pool = new Piscina({
          filename: new URL('./pass-image-worker.mjs', import.meta.url).href,
          minThreads: 0,
          maxThreads: 1,
          idleTimeout: 60_000,
          // A thread's V8 heap sizes itself to its garbage: unbounded, this one held 42 MB for the
          // 8-15 MB a soak's mails used. An image needs well under 1 MB.
          resourceLimits: PASS_THREAD_LIMITS,
        })
        // a thread that dies (out of its heap) fails the task it ran, whose mail is tried again;
        // the pool starts another thread for the next
        pool.on('error', () => {})
      }
      const images = (await pool.run({ codes: [...codes] })) as Uint8Array[]
      return images.map((image) => Buffer.from(image.buffer, image.byteOffset, image.byteLength))
    },
    async close() {
      await pool?.destroy()
      pool = null
    },
  }
}
