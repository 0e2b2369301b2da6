// The fonts of invoices, bills of supply and credit notes. Text that PDF's standard Helvetica can
// write (WinAnsi: English, most of Western Europe) is written in it: built into every reader, nothing
// embedded, and the cheapest to lay out. A name, address, title or description in an Indian script
// (a buyer "सुमन", an organizer "அருண் ஈவென்ட்ஸ்") or with the rupee sign would come out as
// mojibake in Helvetica, so such a text is written in the Noto Sans of its script (OFL fonts from
// the @expo-google-fonts packages; each also has Latin letters, digits and ₹), embedded as a subset
// of the glyphs used, and shaped by fontkit (conjuncts, vowel signs). Each font is read and parsed
// once per process and handed to pdfkit as a parsed font: parsing it again for every document cost
// ~250 ms a document.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import * as fontkit from 'fontkit'
import PDFDocument from 'pdfkit'

export type Weight = 'regular' | 'bold'

/** the scripts of India's languages with a font, in the order a text is matched against them */
const SCRIPTS = [
  'Devanagari',
  'Bengali',
  'Tamil',
  'Telugu',
  'Kannada',
  'Malayalam',
  'Gujarati',
  'Gurmukhi',
  'Oriya',
] as const

const STANDARD: Record<Weight, string> = { regular: 'Helvetica', bold: 'Helvetica-Bold' }

const require = createRequire(import.meta.url)

/** a parsed font, as pdfkit takes it (anything with a layout function) */
type Face = fontkit.Font & { layout: (...args: never[]) => unknown }

const faces = new Map<string, Face>()

function faceOf(script: (typeof SCRIPTS)[number], weight: Weight): Face {
  const key = `${script} ${weight}`
  let face = faces.get(key)
  if (!face) {
    const slug = script.toLowerCase()
    const folder = dirname(require.resolve(`@expo-google-fonts/noto-sans-${slug}/package.json`))
    const style = weight === 'bold' ? '700Bold' : '400Regular'
    const file = join(folder, style, `NotoSans${script}_${style}.ttf`)
    const parsed = fontkit.create(readFileSync(file))
    if (!('layout' in parsed)) throw new Error(`${file} is a font collection, not a font`)
    face = parsed as Face
    faces.set(key, face)
  }
  return face
}

/** the characters Windows-1252 has beyond Latin-1's (what pdfkit's standard fonts encode) */
const WIN_ANSI_EXTRAS = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ')

const inWinAnsi = (char: string): boolean => {
  const code = char.codePointAt(0) ?? 0
  return (
    code === 0x0a ||
    (code >= 0x20 && code <= 0x7e) ||
    (code >= 0xa0 && code <= 0xff) ||
    WIN_ANSI_EXTRAS.has(char)
  )
}

/** joiners, selectors and spaces: written in whatever font their neighbours are */
const neutral = (code: number) =>
  code === 0x20 || code === 0x0a || code === 0x200c || code === 0x200d || (code >= 0xfe00 && code <= 0xfe0f)

/** a font as pdfkit's font(src, family) takes it: a standard font's name, or a parsed font and its name */
export type FontChoice = { src: string; family?: undefined } | { src: Face; family: string }

/**
 * The font to write a text in: Helvetica when it can, else the Noto Sans of the first script whose
 * font has every character of it, else the one that has the most (what none has shows as the
 * font's empty box, never as other letters).
 */
export function fontFor(text: string, weight: Weight): FontChoice {
  const chars = [...text]
  if (chars.every(inWinAnsi)) return { src: STANDARD[weight] }
  const codes = chars.map((char) => char.codePointAt(0) ?? 0).filter((code) => !neutral(code))
  let best: FontChoice = { src: STANDARD[weight] }
  let bestCount = 0
  for (const script of SCRIPTS) {
    const face = faceOf(script, weight)
    const count = codes.filter((code) => face.hasGlyphForCodePoint(code)).length
    const choice = { src: face, family: `NotoSans${script}-${weight}` }
    if (count === codes.length) return choice
    if (count > bestCount) {
      best = choice
      bestCount = count
    }
  }
  return best
}

/** what a document keeps of its fonts (pdfkit's own fields, read and set by PdfDocument below) */
type FontTable = { _fontFamilies: Record<string, object | undefined>; _fontCount: number }

/** a standard font as pdfkit made it once: its class and its metrics, without its document */
const standardFonts = new Map<string, { proto: object; metrics: Record<string, unknown> }>()

/**
 * pdfkit's document, its standard fonts' metrics built once per process. pdfkit builds Helvetica's
 * and Helvetica-Bold's metrics (their widths and 2,700 kerning pairs as an object) again for every
 * document: 0.9 of an invoice's 3.4 ms. The metrics are only read once built, so every document's
 * font shares the first one's; each document still has a font object of its own, with its own id and
 * PDF object, made as pdfkit makes it, so the bytes written are the same.
 */
export class PdfDocument extends PDFDocument {
  override font(src: PDFKit.Mixins.PDFFontSource, family?: string | number, size?: number): this {
    const fonts = this as unknown as FontTable
    const named = typeof src === 'string' && family == null ? src : null
    const known = named ? standardFonts.get(named) : undefined
    if (named && known && !fonts._fontFamilies[named])
      fonts._fontFamilies[named] = Object.assign(Object.create(known.proto), known.metrics, {
        document: this,
        id: `F${++fonts._fontCount}`,
      })
    if (typeof family === 'string') super.font(src, family, size)
    else super.font(src, family)
    if (named && !known) {
      const made = fonts._fontFamilies[named] as Record<string, unknown> | undefined
      if (made?.constructor?.name === 'StandardFont') {
        const { name, font, ascender, descender, bbox, lineGap, xHeight, capHeight } = made
        const metrics = { name, font, ascender, descender, bbox, lineGap, xHeight, capHeight }
        standardFonts.set(named, { proto: Object.getPrototypeOf(made), metrics })
      }
    }
    return this
  }
}
