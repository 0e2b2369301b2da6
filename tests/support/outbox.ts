// Reads mail written to the outbox folder (no SMTP_URL): waits for a message and decodes it.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

export type OutboxMail = { file: string; to: string; subject: string; text: string }

const decodeQuotedPrintable = (body: string) =>
  Buffer.from(
    body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  ).toString('utf8')

export function readOutbox(outboxDir: string): OutboxMail[] {
  let files: string[]
  try {
    files = readdirSync(outboxDir)
      .filter((f) => f.endsWith('.eml'))
      .sort()
  } catch {
    return []
  }
  return files.map((file) => {
    const raw = readFileSync(join(outboxDir, file), 'utf8')
    const split = raw.indexOf('\n\n')
    const head = raw.slice(0, split)
    const body = raw.slice(split + 2)
    const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(head)?.[1]?.trim() ?? ''
    const qp = /quoted-printable/i.test(header('Content-Transfer-Encoding'))
    return {
      file,
      to: header('To'),
      subject: header('Subject'),
      text: qp ? decodeQuotedPrintable(body) : body,
    }
  })
}

export async function waitForMail(
  outboxDir: string,
  match: (mail: OutboxMail) => boolean,
  timeoutMs = 10_000,
): Promise<OutboxMail> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const found = readOutbox(outboxDir).find(match)
    if (found) return found
    if (Date.now() > deadline) throw new Error('no matching mail arrived in the outbox')
    await new Promise((r) => setTimeout(r, 50))
  }
}
