// The attendee export's cells: RFC 4180 quoting, and spreadsheet formulas neutralised (OWASP).
import { describe, expect, it } from 'vitest'
import { csvCell, csvRow } from '../../server/analytics/csv.ts'

describe('csvCell', () => {
  it('leaves plain text and numbers as they are', () => {
    expect(csvCell('Kabini Jazz Weekend')).toBe('Kabini Jazz Weekend')
    expect(csvCell('asha@example.com')).toBe('asha@example.com')
    expect(csvCell(1499)).toBe('1499')
    expect(csvCell('')).toBe('')
  })

  it('writes null and undefined as empty cells', () => {
    expect(csvCell(null)).toBe('')
    expect(csvCell(undefined)).toBe('')
  })

  it('quotes a cell holding a comma, a quote (doubled), a CR or an LF', () => {
    expect(csvCell('Doe, Jane')).toBe('"Doe, Jane"')
    expect(csvCell('Say "Hi"')).toBe('"Say ""Hi"""')
    expect(csvCell('First\nSecond')).toBe('"First\nSecond"')
    expect(csvCell('First\r\nSecond')).toBe('"First\r\nSecond"')
    expect(csvCell('"')).toBe('""""')
  })

  it.each(['=', '+', '-', '@', '\t', '\r'])(
    'neutralises a cell starting with %j with a leading apostrophe',
    (start) => {
      const cell = csvCell(`${start}1+1`)
      expect(cell.replace(/^"|"$/g, '').startsWith(`'${start}`)).toBe(true)
    },
  )

  it('neutralises first, then quotes what needs quoting', () => {
    expect(csvCell('=SUM(A1:A9)')).toBe("'=SUM(A1:A9)")
    expect(csvCell('=HYPERLINK("http://evil.example","x")')).toBe(
      '"\'=HYPERLINK(""http://evil.example"",""x"")"',
    )
    expect(csvCell('@SUM(1,2)')).toBe('"\'@SUM(1,2)"')
    expect(csvCell('+91 98450 12345')).toBe("'+91 98450 12345")
    expect(csvCell(-5)).toBe("'-5")
  })

  it('leaves a formula character that is not the first one alone', () => {
    expect(csvCell('Rock=Roll')).toBe('Rock=Roll')
    expect(csvCell('a+b@c-d')).toBe('a+b@c-d')
    expect(csvCell(' =1')).toBe(' =1')
  })
})

describe('csvRow', () => {
  it('joins cells with commas and ends the record with CRLF', () => {
    expect(csvRow(['eventName', 'eventCategory', 'username', 'email', 'phone', 'paymentStatus'])).toBe(
      'eventName,eventCategory,username,email,phone,paymentStatus\r\n',
    )
    expect(csvRow(['Rock, Roll', 'Music', '=cmd', 'a@b.c', null, 'Completed'])).toBe(
      '"Rock, Roll",Music,\'=cmd,a@b.c,,Completed\r\n',
    )
  })
})
