// Invoices, bills of supply and credit notes as PDFs, read back the way people and programs read
// them: drawn to an image by Debian's poppler (pdftoppm), the image read by tesseract's OCR, and the
// text taken out by pdftotext. Both tools are needed: .ci/run installs them.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PNG } from 'pngjs'
import { afterAll, describe, expect, it, vi } from 'vitest'
import type { InvoiceDocument } from '../../contracts/billing.ts'
import { documentPdf, inr } from '../../server/billing/pdf.ts'

const folder = mkdtempSync(join(tmpdir(), 'invoice-pdf-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

const INSTALL: Record<string, string> = {
  pdftoppm: 'poppler-utils',
  pdftotext: 'poppler-utils',
  pdfinfo: 'poppler-utils',
  pdffonts: 'poppler-utils',
  tesseract: 'tesseract-ocr',
}

/** a tool's standard output; a missing tool fails the test with how to install it */
function run(tool: string, args: string[]): Buffer {
  const result = spawnSync(tool, args, { maxBuffer: 64 * 1024 * 1024 })
  if ((result.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT')
    throw new Error(`${tool} is not installed: apt-get install -y ${INSTALL[tool]} (.ci/run installs it)`)
  if (result.error) throw result.error
  if (result.status !== 0) throw new Error(`${tool} ${args.join(' ')} failed: ${result.stderr.toString()}`)
  return result.stdout
}

let files = 0
const saved = (pdf: Buffer): string => {
  const path = join(folder, `document-${++files}.pdf`)
  writeFileSync(path, pdf)
  return path
}
/** the first page as a PNG, at a resolution in dots per inch */
const pagePng = (pdfPath: string, dpi: number): Buffer => {
  const base = pdfPath.replace(/\.pdf$/, `-${dpi}`)
  run('pdftoppm', ['-png', '-r', String(dpi), '-f', '1', '-l', '1', '-singlefile', pdfPath, base])
  return readFileSync(`${base}.png`)
}
const words = (text: string) => text.replace(/\s+/g, ' ').trim()
const pdfText = (pdfPath: string) => words(run('pdftotext', ['-layout', pdfPath, '-']).toString())
const ocrText = (png: Buffer) => {
  const path = join(folder, `ocr-${++files}.png`)
  writeFileSync(path, png)
  return words(run('tesseract', [path, '-', '--psm', '6']).toString())
}

const taxInvoice: InvoiceDocument = {
  kind: 'tax-invoice',
  number: 'INV2627/000042',
  date: '2026-12-02',
  supplier: {
    legalName: 'Utsav Live Events Private Limited',
    gstin: '27AAPFU0939F1ZV',
    address:
      'Unit 1204, Tower B, Peninsula Business Park, Ganpatrao Kadam Marg, Lower Parel West, Mumbai 400013, opposite the old mill compound gate number two',
    state: '27',
  },
  buyer: { name: 'Asha Kulkarni', email: 'asha.kulkarni@example.in' },
  placeOfSupply: '27',
  lines: [
    {
      description:
        'Admission: Gold standing, Monsoon Nights at the Arena, including early entry and the after-party lounge',
      sac: '9996',
      quantity: 40,
      taxableValue: 100000,
      cgst: 9000,
      sgst: 9000,
      igst: 0,
      total: 118000,
    },
    {
      description: 'Booking fee',
      sac: '998599',
      quantity: 1,
      taxableValue: 1000,
      cgst: 90,
      sgst: 90,
      igst: 0,
      total: 1180,
    },
  ],
  totals: { taxableValue: 101000, cgst: 9090, sgst: 9090, igst: 0, total: 119180 },
  ticketId: 'ticket-1',
  event: { _id: 'event-1', title: 'Monsoon Nights', date: '2027-01-15' },
}

const creditNote: InvoiceDocument = {
  ...taxInvoice,
  kind: 'credit-note',
  number: 'CRN2627/000003',
  date: '2026-12-20',
  against: 'INV2627/000042',
}

const billOfSupply: InvoiceDocument = {
  ...taxInvoice,
  kind: 'bill-of-supply',
  number: 'ULE2627/000007',
  supplier: { ...taxInvoice.supplier, gstin: null },
  placeOfSupply: '29',
  lines: taxInvoice.lines.map((line) => ({
    ...line,
    cgst: 0,
    sgst: 0,
    igst: 0,
    total: line.taxableValue,
  })),
  totals: { taxableValue: 101000, cgst: 0, sgst: 0, igst: 0, total: 101000 },
}

describe('amounts on documents', () => {
  it('have both paise digits and Indian grouping', () => {
    expect(inr(118000)).toBe('INR 1,18,000.00')
    expect(inr(12345678.5)).toBe('INR 1,23,45,678.50')
    expect(inr(0)).toBe('INR 0.00')
  })
})

describe('a tax invoice as a PDF', () => {
  it('is the same bytes whether its standard fonts are built for it or shared from an earlier one', async () => {
    // this module's documents share the metrics the first one built (pdf-fonts.ts's PdfDocument)
    await documentPdf(creditNote)
    const shared = await documentPdf(taxInvoice)
    // a module loaded afresh has none kept: its first document builds its own
    vi.resetModules()
    const fresh = await import('../../server/billing/pdf.ts')
    const built = await fresh.documentPdf(taxInvoice)
    expect(shared.equals(built)).toBe(true)
  })

  it('is one A4 page titled with its number, by the supplier, the same bytes each time', async () => {
    const pdf = await documentPdf(taxInvoice)
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-')
    expect((await documentPdf(taxInvoice)).equals(pdf)).toBe(true)
    const info = run('pdfinfo', [saved(pdf)]).toString()
    expect(info).toMatch(/^Title:\s+INV2627\/000042$/m)
    expect(info).toMatch(/^Author:\s+Utsav Live Events Private Limited$/m)
    expect(info).toMatch(/^Pages:\s+1$/m)
    expect(info).toMatch(/^Page size:\s+595\.28 x 841\.89 pts \(A4\)$/m)
  })

  it('draws to a page image with ink on it', async () => {
    const png = pagePng(saved(await documentPdf(taxInvoice)), 100)
    expect(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(
      true,
    )
    const image = PNG.sync.read(png)
    // A4 at 100 dpi: 8.27 × 11.69 inches
    expect(image.width).toBeGreaterThanOrEqual(820)
    expect(image.width).toBeLessThanOrEqual(834)
    expect(image.height).toBeGreaterThanOrEqual(1160)
    expect(image.height).toBeLessThanOrEqual(1176)
    let dark = 0
    let darkAtTop = 0
    for (let i = 0; i < image.width * image.height; i++) {
      const ink =
        3 * 255 - (image.data[4 * i] ?? 255) - (image.data[4 * i + 1] ?? 255) - (image.data[4 * i + 2] ?? 255)
      if (ink > 3 * 127) {
        dark++
        // the heading sits in the top tenth
        if (i < image.width * Math.floor(image.height / 10)) darkAtTop++
      }
    }
    const share = dark / (image.width * image.height)
    expect(share).toBeGreaterThan(0.005)
    expect(share).toBeLessThan(0.2)
    expect(darkAtTop).toBeGreaterThan(500)
  })

  it('reads, by OCR of its image, the number, the GSTIN and the total', async () => {
    const text = ocrText(pagePng(saved(await documentPdf(taxInvoice)), 200))
    expect(text).toContain('Tax invoice')
    expect(text).toContain('INV2627/000042')
    expect(text).toContain('27AAPFU0939F1ZV')
    expect(text).toContain('INR 1,19,180.00')
  }, 30_000)

  it('holds every part of the document in its text, long texts wrapped within the page', async () => {
    const path = saved(await documentPdf(taxInvoice))
    const text = pdfText(path)
    for (const part of [
      'Tax invoice',
      'No. INV2627/000042',
      'Date: 2 December 2026',
      'Utsav Live Events Private Limited',
      'GSTIN: 27AAPFU0939F1ZV',
      'State: Maharashtra (27)',
      'Asha Kulkarni',
      'asha.kulkarni@example.in',
      'Place of supply: Maharashtra (27)',
      'Event: Monsoon Nights, 15 January 2027',
      'Description SAC Qty Taxable value CGST SGST IGST Total',
      'Booking fee 998599 1 INR 1,000.00 INR 90.00 INR 90.00 INR 0.00 INR 1,180.00',
      'Total INR 1,01,000.00 INR 9,090.00 INR 9,090.00 INR 0.00 INR 1,19,180.00',
      'Amount payable: INR 1,19,180.00',
    ])
      expect(text).toContain(part)
    expect(text).not.toContain('Against invoice')
    // the first line's amounts stand on one row, its description wrapped beside them
    expect(text).toMatch(/9996 40 INR 1,00,000\.00 INR 9,000\.00 INR 9,000\.00 INR 0\.00 INR 1,18,000\.00/)
    // nothing runs off the page: every word is inside its box
    const boxes = run('pdftotext', ['-bbox', path, '-']).toString()
    const page = /<page width="([\d.]+)" height="([\d.]+)"/.exec(boxes)
    const right = Number(page?.[1])
    expect(right).toBeCloseTo(595.28, 1)
    const xMaxes = [...boxes.matchAll(/xMax="([\d.]+)"/g)].map((m) => Number(m[1]))
    expect(xMaxes.length).toBeGreaterThan(50)
    expect(Math.max(...xMaxes)).toBeLessThanOrEqual(right - 30)
    for (const word of ['opposite', 'gate', 'two', 'after-party', 'lounge'])
      expect(boxes).toContain(`>${word}<`)
  })
})

describe('a credit note as a PDF', () => {
  it('names the invoice it is against', async () => {
    const text = pdfText(saved(await documentPdf(creditNote)))
    expect(text).toContain('Credit note')
    expect(text).toContain('No. CRN2627/000003')
    expect(text).toContain('Date: 20 December 2026')
    expect(text).toContain('Against invoice INV2627/000042')
    expect(text).toContain('Amount credited: INR 1,19,180.00')
    expect(text).not.toContain('Tax invoice')
  })
})

describe('a bill of supply as a PDF', () => {
  it('has no GSTIN and charges no tax', async () => {
    const text = pdfText(saved(await documentPdf(billOfSupply)))
    expect(text).toContain('Bill of supply')
    expect(text).toContain('No. ULE2627/000007')
    expect(text).toContain('Place of supply: Karnataka (29)')
    expect(text).toContain('Composition/unregistered supplier: no GST charged.')
    expect(text).toContain('Total INR 1,01,000.00 INR 1,01,000.00')
    expect(text).not.toContain('GSTIN')
    expect(text).not.toMatch(/CGST|SGST|IGST/)
  })
})

describe('names and titles in Indian scripts', () => {
  // a Hindi buyer, a Tamil organizer, a Hindi title with the rupee sign in a description: Helvetica
  // has none of these (they came out as other Latin letters); each is written in its script's font
  const indian: InvoiceDocument = {
    ...taxInvoice,
    supplier: { ...taxInvoice.supplier, legalName: 'அருண் குமார் Events' },
    buyer: { name: 'कमला देवी', email: 'kamala@example.in' },
    event: { ...taxInvoice.event, title: 'दीपावली मेला' },
    lines: taxInvoice.lines.map((line, i) =>
      i === 0 ? { ...line, description: 'Admission: मेला, ₹500 seats' } : line,
    ),
  }
  const fonts = (path: string) => run('pdffonts', [path]).toString()

  it('writes them in the Noto Sans of their script, embedded, and reads them back from the text', async () => {
    const pdf = await documentPdf(indian)
    expect((await documentPdf(indian)).equals(pdf)).toBe(true)
    const path = saved(pdf)
    const embedded = fonts(path)
    expect(embedded).toMatch(/\+NotoSansDevanagari-Bold\s+CID TrueType\s+Identity-H\s+yes yes yes/)
    expect(embedded).toMatch(/\+NotoSansDevanagari-Regular\s+CID TrueType\s+Identity-H\s+yes yes yes/)
    expect(embedded).toMatch(/\+NotoSansTamil-Bold\s+CID TrueType\s+Identity-H\s+yes yes yes/)
    const text = pdfText(path)
    for (const part of ['அருண் குமார் Events', 'कमला देवी', 'Event: दीपावली मेला, 15 January 2027', '₹500'])
      expect(text).toContain(part)
    // the rest as before, in Helvetica
    expect(text).toContain('Amount payable: INR 1,19,180.00')
    expect(embedded).toMatch(/^Helvetica\s+Type 1/m)
  })

  it('embeds no font in a document Helvetica can write', async () => {
    expect(fonts(saved(await documentPdf(taxInvoice)))).not.toMatch(/Noto|CID/)
  })
})
