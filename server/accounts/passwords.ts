// argon2id with OWASP's minimum parameters (19 MiB, 2 iterations, 1 lane).
import { hash, verify } from '@node-rs/argon2'

const options = { memoryCost: 19456, timeCost: 2, parallelism: 1 }

export const hashPassword = (password: string) => hash(password, options)

// Verified when no account matches, so an unknown e-mail takes as long as a wrong password.
let decoy: Promise<string> | null = null

export async function verifyPassword(passwordHash: string | undefined, password: string): Promise<boolean> {
  if (!passwordHash) {
    decoy ??= hashPassword('decoy password, never matches')
    await verify(await decoy, password).catch(() => false)
    return false
  }
  return verify(passwordHash, password).catch(() => false)
}
