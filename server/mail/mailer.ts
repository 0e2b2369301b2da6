// Mail through nodemailer: SMTP when SMTP_URL is set, else one .eml file per message in the outbox.
// A mail may carry ticket passes (issue 16): each is drawn as a QR code image (qrcode, the library
// the ticket page draws them with, in a worker thread: pass-images.ts) when the mail is sent, and
// attached inline under the content id its HTML names (passImageId), so a job in the queue holds
// only the codes' text.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import nodemailer from 'nodemailer'
import type { InvoiceDocument } from '../../contracts/billing.ts'
import type { Series } from '../billing/documents.ts'
import { documentPdf } from '../billing/pdf.ts'
import type { Config } from '../config.ts'
import { type PassImages, passImages } from './pass-images.ts'

/** a pass the mail shows as a QR code: its admission number and its code */
export type MailPass = { admission: number; code: string }

export type Mail = {
  to: string
  subject: string
  text: string
  html?: string
  passes?: MailPass[]
  /** invoices and credit notes (issue 42): each attached as its PDF, drawn when the mail is sent */
  documents?: InvoiceDocument[]
  /**
   * an order's documents of one series, read when the mail is sent (workers/mail.ts) and attached
   * as `documents`: a queued mail holds the order's id, not its documents
   */
  documentsOf?: { orderId: string; series: Series }
}

/** the content id of a pass's image: what the mail's HTML names in <img src="cid:…"> */
export const passImageId = (admission: number) => `pass-${admission}@tickets`

export type Mailer = {
  send(mail: Mail): Promise<{ messageId: string }>
  close(): void
}

/** what nodemailer sends: the mail with its passes drawn and attached inline, its documents as PDFs */
async function message(mail: Mail, images: PassImages) {
  const { passes, documents, documentsOf: _read, ...rest } = mail
  if (!passes?.length && !documents?.length) return rest
  const drawn = passes?.length ? await images.draw(passes.map((pass) => pass.code)) : []
  const attachments: Array<Record<string, unknown>> = (passes ?? []).map((pass, i) => ({
    filename: `pass-${pass.admission}.png`,
    content: drawn[i] as Buffer,
    contentType: 'image/png',
    cid: passImageId(pass.admission),
    contentDisposition: 'inline' as const,
  }))
  for (const document of documents ?? []) {
    attachments.push({
      filename: `${document.number.replace(/[^A-Za-z0-9-]/g, '_')}.pdf`,
      content: await documentPdf(document),
      contentType: 'application/pdf',
    })
  }
  return { ...rest, attachments }
}

export function createMailer(config: Config): Mailer {
  const from = config.mail.from
  const images = passImages()
  if (config.mail.smtpUrl) {
    const transport = nodemailer.createTransport(config.mail.smtpUrl)
    return {
      async send(mail) {
        const info = await transport.sendMail({ from, ...(await message(mail, images)) })
        return { messageId: info.messageId }
      },
      close: () => {
        transport.close()
        void images.close()
      },
    }
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
  let outbox: Promise<unknown> | null = null
  return {
    async send(mail) {
      const info = await transport.sendMail({ from, ...(await message(mail, images)) })
      outbox ??= mkdir(config.outboxDir, { recursive: true })
      await outbox
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[^a-zA-Z0-9]/g, '')}.eml`
      await writeFile(join(config.outboxDir, name), info.message as Buffer)
      return { messageId: info.messageId }
    },
    close: () => {
      transport.close()
      void images.close()
    },
  }
}
