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

export function passImages(): PassImages {
  let pool: Piscina | null = null
  return {
    async draw(codes) {
      if (codes.length === 0) return []
      pool ??= new Piscina({
        filename: new URL('./pass-image-worker.mjs', import.meta.url).href,
        minThreads: 0,
        maxThreads: 1,
        idleTimeout: 60_000,
      })
      const images = (await pool.run({ codes: [...codes] })) as Uint8Array[]
      return images.map((image) => Buffer.from(image.buffer, image.byteOffset, image.byteLength))
    },
    async close() {
      await pool?.destroy()
      pool = null
    },
  }
}
