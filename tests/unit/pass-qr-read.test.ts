// Every pass code, drawn as the mail draws it, is read back by the reader the check-in screen uses
// where the browser has no BarcodeDetector (ZXing's C++ reader in WebAssembly, barcode-detector).
// ZXing's JavaScript port, the door's reader before, missed 11 of 300 such drawings (3.7%): a
// pass it cannot read is a person who cannot get in, so this reads 200 different codes.
import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { passSeed, passSigner } from '../../server/checkin/pass-codes.ts'
import draw from '../../server/mail/pass-image-worker.mjs'
import { readQrCode } from '../support/qr-read.ts'

const signer = passSigner(passSeed('a-jwt-secret-of-at-least-32-characters!'))
const id = () => randomBytes(12).toString('hex')

describe('a pass drawn as a QR code', () => {
  // 200 codes drawn and decoded: seconds of CPU
  it('is read back, whatever its code, for 200 codes', { timeout: 60_000 }, async () => {
    const codes = Array.from({ length: 200 }, (_, i) =>
      signer.codeOf({ eventId: id(), ticketId: id(), admission: 1 + (i % 10), version: i % 3 }),
    )
    const images = await draw({ codes })
    const read = await Promise.all(images.map((image) => readQrCode(Buffer.from(image))))
    expect(read).toEqual(codes)
  })
})
