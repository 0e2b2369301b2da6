// Mail through nodemailer: SMTP when SMTP_URL is set, else one .eml file per message in the outbox.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import nodemailer from 'nodemailer'
import type { Config } from '../config.ts'

export type Mail = { to: string; subject: string; text: string; html?: string }

export type Mailer = {
  send(mail: Mail): Promise<{ messageId: string }>
  close(): void
}

export function createMailer(config: Config): Mailer {
  const from = config.mail.from
  if (config.mail.smtpUrl) {
    const transport = nodemailer.createTransport(config.mail.smtpUrl)
    return {
      async send(mail) {
        const info = await transport.sendMail({ from, ...mail })
        return { messageId: info.messageId }
      },
      close: () => transport.close(),
    }
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
  let outbox: Promise<unknown> | null = null
  return {
    async send(mail) {
      const info = await transport.sendMail({ from, ...mail })
      outbox ??= mkdir(config.outboxDir, { recursive: true })
      await outbox
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[^a-zA-Z0-9]/g, '')}.eml`
      await writeFile(join(config.outboxDir, name), info.message as Buffer)
      return { messageId: info.messageId }
    },
    close: () => transport.close(),
  }
}
