// An invoice, bill of supply or credit note as a one-page A4 PDF (more pages when the lines need
// them). What PDF's standard Helvetica can write is written in it (built into every reader, nothing
// embedded); a name, address, title or description in an Indian script in the Noto Sans of its
// script, embedded (pdf-fonts.ts). Amounts read "INR 1,18,000.00" in either.
import { createHash } from 'node:crypto'
import {
  type DocumentKind,
  type DocumentMoney,
  GST_STATES,
  type InvoiceDocument,
} from '../../contracts/billing.ts'
import { fontFor, PdfDocument, type Weight } from './pdf-fonts.ts'

const TITLES: Record<DocumentKind, string> = {
  'tax-invoice': 'Tax invoice',
  'bill-of-supply': 'Bill of supply',
  'credit-note': 'Credit note',
}

const MARGIN = 40
const REGULAR = 'Helvetica'
const BOLD = 'Helvetica-Bold'
const BODY = 9
const SMALL = 8
const CELL_PADDING = 3

const grouped = new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })

/** Rupees with both paise digits and Indian grouping: INR 1,18,000.00 */
export const inr = (rupees: number): string => `INR ${grouped.format(rupees)}`

const days = new Intl.DateTimeFormat('en-IN', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
})
const dayText = (date: string): string => days.format(new Date(`${date.slice(0, 10)}T00:00:00Z`))

const stateText = (code: string): string => `${GST_STATES[code] ?? 'Unknown state'} (${code})`

type Column = { heading: string; width: number; align: 'left' | 'right'; cell: (line: Row) => string }
type Row = { description: string; sac: string; quantity: string } & DocumentMoney

/** The columns of the lines' table: a bill of supply charges no tax, so it has no tax columns. */
function columnsFor(kind: DocumentKind, width: number): Column[] {
  const money = (heading: string, pick: (row: Row) => number): Column => ({
    heading,
    width: 72,
    align: 'right',
    cell: (row) => inr(pick(row)),
  })
  const amounts =
    kind === 'bill-of-supply'
      ? [money('Value', (r) => r.taxableValue), money('Total', (r) => r.total)]
      : [
          money('Taxable value', (r) => r.taxableValue),
          money('CGST', (r) => r.cgst),
          money('SGST', (r) => r.sgst),
          money('IGST', (r) => r.igst),
          money('Total', (r) => r.total),
        ]
  const sac: Column = { heading: 'SAC', width: 40, align: 'left', cell: (r) => r.sac }
  const quantity: Column = { heading: 'Qty', width: 28, align: 'right', cell: (r) => r.quantity }
  const fixed = amounts.reduce((sum, c) => sum + c.width, sac.width + quantity.width)
  const description: Column = {
    heading: 'Description',
    width: width - fixed,
    align: 'left',
    cell: (r) => r.description,
  }
  return [description, sac, quantity, ...amounts]
}

/** A document's PDF as HTTP names it (ETag): a document never changes, and draws the same bytes. */
export const pdfTag = (doc: InvoiceDocument): string =>
  `"pdf-${createHash('sha256').update(JSON.stringify(doc)).digest('base64url').slice(0, 27)}"`

/** PDFs drawn lately, by tag, the newest last: asked again (or at once twice), one is drawn once */
const drawn = new Map<string, Promise<Buffer>>()
const DRAWN_KEPT = 64

/** The document's PDF, drawn once while it is among the last DRAWN_KEPT asked for. */
export function keptPdf(tag: string, doc: InvoiceDocument): Promise<Buffer> {
  const kept = drawn.get(tag)
  drawn.delete(tag)
  const pdf = kept ?? documentPdf(doc)
  drawn.set(tag, pdf)
  if (!kept) pdf.catch(() => drawn.delete(tag))
  for (const oldest of drawn.keys()) {
    if (drawn.size <= DRAWN_KEPT) break
    drawn.delete(oldest)
  }
  return pdf
}

export async function documentPdf(doc: InvoiceDocument): Promise<Buffer> {
  const title = TITLES[doc.kind]
  const pdf = new PdfDocument({
    size: 'A4',
    margin: MARGIN,
    // the day of issue stands for the creation time, so the same document gives the same bytes
    info: {
      Title: doc.number,
      Author: doc.supplier.legalName,
      Subject: `${title} ${doc.number}`,
      Creator: 'Event ticketing',
      Producer: 'Event ticketing',
      CreationDate: new Date(`${doc.date.slice(0, 10)}T00:00:00Z`),
    },
  })
  const chunks: Buffer[] = []
  pdf.on('data', (chunk: Buffer) => chunks.push(chunk))
  const finished = new Promise<Buffer>((resolve, reject) => {
    pdf.on('end', () => resolve(Buffer.concat(chunks)))
    pdf.on('error', reject)
  })

  /** the font for a text of the document's own (a name, an address, a title, a description) */
  const fontOf = (text: string, weight: Weight) => {
    const choice = fontFor(text, weight)
    // pdfkit takes a parsed font too (anything with layout()); its types list only files and names
    return pdf.font(choice.src as string, choice.family as string)
  }

  const left = MARGIN
  const width = pdf.page.width - 2 * MARGIN
  const half = (width - 20) / 2

  // Heading: what the document is, its number and day, and for a credit note the invoice it undoes
  pdf.font(BOLD).fontSize(18).text(title, left, MARGIN, { width: half })
  const headingBottom = pdf.y
  const facts = [`No. ${doc.number}`, `Date: ${dayText(doc.date)}`]
  if (doc.kind === 'credit-note' && doc.against) facts.push(`Against invoice ${doc.against}`)
  pdf
    .font(REGULAR)
    .fontSize(BODY + 1)
    .text(facts.join('\n'), left + half + 20, MARGIN + 2, { width: half, align: 'right' })
  let y = Math.max(headingBottom, pdf.y) + 16

  // Supplier on the left, buyer and place of supply on the right, each wrapping within its half
  const block = (x: number, heading: string, name: string, rest: string[]) => {
    pdf.font(BOLD).fontSize(SMALL).fillColor('#555555').text(heading.toUpperCase(), x, y, { width: half })
    fontOf(name, 'bold')
      .fontSize(BODY + 1)
      .fillColor('black')
      .text(name, { width: half })
    fontOf(rest.join('\n'), 'regular').fontSize(BODY).text(rest.join('\n'), { width: half })
    return pdf.y
  }
  const supplier = [
    ...(doc.supplier.gstin ? [`GSTIN: ${doc.supplier.gstin}`] : []),
    doc.supplier.address,
    `State: ${stateText(doc.supplier.state)}`,
  ]
  const supplierBottom = block(left, 'Supplier', doc.supplier.legalName, supplier)
  const buyerBottom = block(left + half + 20, 'Buyer', doc.buyer.name, [
    doc.buyer.email,
    `Place of supply: ${stateText(doc.placeOfSupply)}`,
  ])
  y = Math.max(supplierBottom, buyerBottom) + 12

  const event = `${doc.event.title}, ${dayText(doc.event.date)}`
  pdf.font(BOLD).fontSize(BODY).text('Event: ', left, y, { continued: true })
  fontOf(event, 'regular').text(event, { width })
  y = pdf.y + 14

  // The lines, then their totals
  const columns = columnsFor(doc.kind, width)
  const rowHeight = (texts: string[], weight: Weight) =>
    Math.max(
      ...columns.map(
        (c, i) =>
          fontOf(texts[i] ?? '', weight)
            .fontSize(SMALL)
            .heightOfString(texts[i] ?? '', { width: c.width - 2 * CELL_PADDING }) +
          2 * CELL_PADDING,
      ),
    )
  const headings = columns.map((c) => c.heading)
  const drawRow = (texts: string[], weight: Weight, shaded: boolean) => {
    const height = rowHeight(texts, weight)
    if (y + height > pdf.page.height - MARGIN) {
      // a long order goes on over the page, under the table's headings again
      pdf.addPage()
      y = MARGIN
      if (texts !== headings) drawRow(headings, 'bold', true)
    }
    if (shaded) pdf.rect(left, y, width, height).fill('#eeeeee').fillColor('black')
    let x = left
    columns.forEach((c, i) => {
      fontOf(texts[i] ?? '', weight).fontSize(SMALL)
      pdf.text(texts[i] ?? '', x + CELL_PADDING, y + CELL_PADDING, {
        width: c.width - 2 * CELL_PADDING,
        align: c.align,
      })
      x += c.width
    })
    y += height
    pdf
      .moveTo(left, y)
      .lineTo(left + width, y)
      .lineWidth(0.5)
      .strokeColor('#999999')
      .stroke()
  }
  drawRow(headings, 'bold', true)
  for (const line of doc.lines) {
    const row = { ...line, quantity: String(line.quantity) }
    drawRow(
      columns.map((c) => c.cell(row)),
      'regular',
      false,
    )
  }
  const totals: Row = { ...doc.totals, description: 'Total', sac: '', quantity: '' }
  drawRow(
    columns.map((c) => c.cell(totals)),
    'bold',
    true,
  )
  y += 10

  pdf
    .font(BOLD)
    .fontSize(BODY + 1)
    .text(
      `Amount ${doc.kind === 'credit-note' ? 'credited' : 'payable'}: ${inr(doc.totals.total)}`,
      left,
      y,
      {
        width,
      },
    )
  if (doc.kind === 'bill-of-supply')
    pdf.font(REGULAR).fontSize(BODY).text('Composition/unregistered supplier: no GST charged.', { width })

  pdf.end()
  return finished
}
