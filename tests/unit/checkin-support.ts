// Passes for the door's tests, signed as the server signs them (door-design.md): an Ed25519 key
// pair with its public key as the manifest carries it, codes over `TKT1.<payload>`, and manifests.
import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto'
import type { Manifest } from '../../web/src/api/checkin.ts'

export function passKeys(): { privateKey: KeyObject; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519')
  // the raw 32 bytes are the end of the SPKI DER
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32)
  return { privateKey, publicKey: Buffer.from(raw).toString('base64url') }
}

/** a code for this claim (any JSON: malformed claims too), signed with this key */
export function makePassCode(claim: Record<string, unknown>, privateKey: KeyObject): string {
  const signed = `TKT1.${Buffer.from(JSON.stringify(claim)).toString('base64url')}`
  return `${signed}.${sign(null, Buffer.from(signed, 'ascii'), privateKey).toString('base64url')}`
}

export type ListedPass = Manifest['passes'][number]

export function manifestOf(
  publicKey: string,
  passes: ListedPass[],
  changes: Partial<Manifest> = {},
): Manifest {
  return {
    eventId: 'evt_1',
    title: 'Jazz Night',
    publicKey,
    opensAt: null,
    generatedAt: '2031-01-01T18:00:00.000Z',
    position: 100,
    voided: [],
    passes,
    ticketTypes: ['General Admission', 'VIP'],
    ...changes,
  }
}
