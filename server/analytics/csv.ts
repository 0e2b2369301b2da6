// CSV per RFC 4180, with spreadsheet formulas neutralised (OWASP: a cell starting with = + - @,
// tab or carriage return gets a leading apostrophe, so a spreadsheet shows it as text).
const formulaStart = /^[=+\-@\t\r]/

export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value)
  if (formulaStart.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

export const csvRow = (cells: Array<string | number | null | undefined>) =>
  `${cells.map(csvCell).join(',')}\r\n`
