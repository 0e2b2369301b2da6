// Reads mail written to the outbox folder (no SMTP_URL): waits for a message and decodes its text
// (the text/plain part of a multipart one); parsedMail() reads one whole (HTML, attachments) with
// mailparser.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type ParsedMail, simpleParser } from 'mailparser'

export type OutboxMail = { file: string; to: string; subject: string; text: string }

const decodeQuotedPrintable = (body: string) =>
  Buffer.from(
    body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  ).toString('utf8')

const headerOf = (head: string, name: string) =>
  new RegExp(`^${name}: (.*)$`, 'mi').exec(head)?.[1]?.trim() ?? ''

/** a message's text: its body, or the text/plain part of a multipart body, decoded */
function textOf(head: string, body: string): string {
  let partHead = head
  let text = body
  if (/^multipart\//i.test(headerOf(head, 'Content-Type'))) {
    const start = body.search(/^Content-Type: text\/plain/im)
    if (start < 0) return ''
    const split = body.indexOf('\n\n', start)
    partHead = body.slice(start, split)
    const end = body.indexOf('\n--', split + 2)
    text = body.slice(split + 2, end < 0 ? undefined : end)
  }
  const encoding = headerOf(partHead, 'Content-Transfer-Encoding')
  if (/quoted-printable/i.test(encoding)) return decodeQuotedPrintable(text)
  if (/base64/i.test(encoding)) return Buffer.from(text, 'base64').toString('utf8')
  return text
}

/** one outbox mail read whole: text, HTML and attachments */
export const parsedMail = (outboxDir: string, mail: OutboxMail): Promise<ParsedMail> =>
  simpleParser(readFileSync(join(outboxDir, mail.file)), { keepCidLinks: true })

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
    const header = (name: string) => headerOf(head, name)
    return { file, to: header('To'), subject: header('Subject'), text: textOf(head, body) }
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
