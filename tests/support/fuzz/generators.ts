// Generators of bad (and sometimes good) input for the fuzz test (tests/integration/fuzz.test.ts):
// strings, numbers and JSON that break parsers and rules, bodies, query strings, path segments,
// headers, multipart forms, and whole requests. Every one is a fast-check arbitrary, so a failing
// request shrinks to a smallest one; none reads anything but its arguments (the world a request is
// aimed at comes in through the route specs, tests/support/fuzz/routes.ts).
import fc from 'fast-check'
import type { HTTPMethods } from 'fastify'
import type { TicketTypeInput } from '../../../contracts/catalog.ts'
import { mp4Video, pngImage, webmVideo } from '../media.ts'
import { nextYear } from '../sales.ts'

/** Ticket types with seats enough for every generated booking. */
export const plenty: TicketTypeInput[] = [
  { type: 'General Admission', price: 500, quantity: 5000 },
  { type: 'VIP', price: 1500, quantity: 1000 },
]

/** Bytes that look like nothing in particular, the same on every run (a xorshift from `seed`). */
function noise(length: number, seed: number): Buffer {
  let x = seed >>> 0 || 1
  const bytes = Buffer.alloc(length)
  for (let i = 0; i < length; i++) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    bytes[i] = x & 0xff
  }
  return bytes
}

export const LONG = 'x'.repeat(100_000)
const nastyStrings = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '😀🎉👩‍👩‍👧',
  '\u202Eevil\u202C',
  'שלום',
  'مرحبا',
  '\uFEFFbom',
  '\ud800',
  'NaN',
  'Infinity',
  '-Infinity',
  '-1',
  '0',
  '1e309',
  '1e21',
  '0x1F',
  '  7  ',
  '1,5',
  'null',
  'undefined',
  'true',
  '{}',
  '[]',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '../../etc/passwd',
  '%00',
  '__proto__',
  'constructor',
  'toString',
  '$where',
  'a'.repeat(65),
  LONG,
  '😀'.repeat(25_000),
  'é'.repeat(5000),
  '\r\n\r\n',
]
const text = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...nastyStrings) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
)
const numbers = fc.oneof(
  fc.constantFrom(0, -0, -1, -5, 1.5, 0.1 + 0.2, 2 ** 31, 2 ** 53 + 2, 1e308, -1e308, 5e-324, 1e21),
  fc.integer(),
  fc.double(),
)
const oddities = fc.constantFrom<unknown>(
  null,
  true,
  false,
  [],
  {},
  [1, 2],
  { $gt: '' },
  { $ne: null },
  [null],
  ['a@b.co'],
  { toString: 'x' },
)
export const nasty: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: text },
  { weight: 2, arbitrary: numbers },
  { weight: 2, arbitrary: oddities },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
)
const nastyText = fc.oneof(text, numbers.map(String))

/** Keys and values that would pollute a prototype if anything merged them carelessly. */
const pollution = fc.constantFrom<[string, unknown]>(
  ['__proto__', { polluted: 'yes', role: 'admin', isAdmin: true }],
  ['constructor', { prototype: { polluted: 'yes' } }],
  ['prototype', { polluted: 'yes' }],
  ['__proto__', 'yes'],
  ['__proto__', null],
)

export const malformedJson = [
  '',
  ' ',
  '{',
  '{"a":',
  '{"a" 1}',
  "{'a':1}",
  '{"a":1,}',
  'NaN',
  'undefined',
  '{}{}',
  '\uFEFF{}',
  '[1,2',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '{"__proto__":{"polluted":"yes"}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '{"a":1e999999}',
  '{"a":-}',
  `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
  `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`,
]

export type Body = { payload?: string | Buffer; type?: string }

export type Fields = Record<string, fc.Arbitrary<unknown>>

/**
 * A JSON object of the route's keys, each with a valid value, or one (or several) wrong: anything
 * nasty, the route's own edge cases, or missing; then stray, repeated and polluting keys.
 */
function objectText(fields: Fields, edges: Fields = {}): fc.Arbitrary<string> {
  type Entry = [string, unknown] | null
  const keys = Object.keys(fields)
  const valid = (key: string) => (fields[key] as fc.Arbitrary<unknown>).map((v): Entry => [key, v])
  const faulty = (key: string) =>
    fc.oneof(
      { weight: 3, arbitrary: nasty.map((v): Entry => [key, v]) },
      ...(edges[key]
        ? [{ weight: 3, arbitrary: (edges[key] as fc.Arbitrary<unknown>).map((v): Entry => [key, v]) }]
        : []),
      { weight: 1, arbitrary: fc.constant<Entry>(null) },
    )
  const stray = fc.oneof(
    pollution,
    fc.tuple(fc.string({ maxLength: 12 }), nasty),
    ...(keys.length ? [fc.tuple(fc.constantFrom(...keys), nasty)] : []),
  )
  // Every key valid, or exactly one wrong (the rules behind validation are reached), or any mix.
  const known: fc.Arbitrary<readonly Entry[]> = fc.oneof(
    { weight: 2, arbitrary: fc.tuple(...keys.map(valid)) },
    {
      weight: 3,
      arbitrary: keys.length
        ? fc
            .nat(keys.length - 1)
            .chain((wrong) => fc.tuple(...keys.map((k, i) => (i === wrong ? faulty(k) : valid(k)))))
        : fc.constant([]),
    },
    { weight: 2, arbitrary: fc.tuple(...keys.map((k) => fc.oneof(valid(k), faulty(k)))) },
  )
  return fc
    .tuple(
      known,
      fc.oneof(
        { weight: 3, arbitrary: fc.constant([]) },
        { weight: 1, arbitrary: fc.array(stray, { maxLength: 3 }) },
      ),
    )
    .map(([entries, extra]) => {
      const all = [...entries.filter((e): e is [string, unknown] => e !== null), ...extra]
      return `{${all.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v) ?? 'null'}`).join(',')}}`
    })
}

/** Bodies for a JSON route: mostly objects of its keys, else arrays, wrong types, broken JSON, none. */
export function jsonBody(fields: Fields, edges: Fields = {}): fc.Arbitrary<Body> {
  const json = (payload: string): Body => ({ payload, type: 'application/json' })
  return fc.oneof(
    { weight: 8, arbitrary: objectText(fields, edges).map(json) },
    { weight: 1, arbitrary: objectText(fields, edges).map((o) => json(`[${o}]`)) },
    { weight: 1, arbitrary: fc.constantFrom(...malformedJson).map(json) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => json(JSON.stringify(v) ?? 'null')) },
    { weight: 1, arbitrary: fc.constant<Body>({}) },
  )
}

/** On routes that take no body: usually none, sometimes one anyway. */
const strayBody: fc.Arbitrary<Body> = fc.oneof(
  { weight: 6, arbitrary: fc.constant<Body>({}) },
  { weight: 1, arbitrary: jsonBody({ anything: nasty }) },
)

export const contentTypeLies = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=nope',
  'application/json; charset=utf-16',
  'application/json; charset=nonsense',
  'application/xml',
  'application/jsonx',
  'APPLICATION/JSON',
  'application/json, text/plain',
  'image/png',
  '',
  ';;;',
]

/** Percent-encodes any string (a lone surrogate becomes U+FFFD first, as a browser would send it). */
export const enc = (value: string) => encodeURIComponent(Buffer.from(value, 'utf8').toString('utf8'))

const nastyParams = [
  'a/b',
  '..',
  '../..',
  '%2e%2e',
  '..%2f..%2fetc%2fpasswd',
  '%00',
  'a%00b',
  'x'.repeat(300),
  'x'.repeat(65),
  'A'.repeat(64),
  '%',
  '%zz',
  '%E0%A4%A',
  enc('😀'),
  '%20',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  '.',
  '-',
  'a;b',
  'a,b',
  'a%2Fb',
  'a%5Cb',
]
/** A path segment: an id that exists, or something that is not an id at all. */
export const param = (valid: string[]) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...valid) },
    { weight: 2, arbitrary: fc.constantFrom(...nastyParams) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }).map(encodeURIComponent) },
  )

const rawQueries = ['%zz', '&&&', '=', 'a=1=2', '%', 'a[=1', 'a]=1', '__proto__[polluted]=yes', 'a=%E0%A4%A']
/** A query string of the route's keys, repeated, as arrays or objects, with pollution and garbage. */
export function query(valid: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<string> {
  const keys = Object.keys(valid)
  const odd = fc.constantFrom(
    ...keys.flatMap((k) => [`${k}[]`, `${k}[a]`]),
    '__proto__[polluted]',
    'constructor[prototype][polluted]',
    'x',
  )
  const value = fc.oneof(...Object.values(valid), nastyText)
  const pair = (key: fc.Arbitrary<string>, val: fc.Arbitrary<string>) =>
    fc
      .tuple(key, val, fc.boolean())
      .map(([k, v, raw]) => `${enc(k)}=${raw ? v.replace(/[#\s%&]/g, '') : enc(v)}`)
  const complete = fc.tuple(...keys.map((k) => pair(fc.constant(k), valid[k] as fc.Arbitrary<string>)))
  return fc.oneof(
    {
      weight: 3,
      arbitrary: fc
        .tuple(complete, fc.array(pair(fc.oneof(fc.constantFrom(...keys), odd), value), { maxLength: 2 }))
        .map(([pairs, extra]) => [...pairs, ...extra].join('&')),
    },
    {
      weight: 3,
      arbitrary: fc
        .array(pair(fc.oneof(fc.constantFrom(...keys), odd), value), { maxLength: 5 })
        .map((p) => p.join('&')),
    },
    { weight: 1, arbitrary: fc.constantFrom(...rawQueries) },
  )
}
const strayQuery = fc.oneof(
  { weight: 6, arbitrary: fc.constant('') },
  { weight: 1, arbitrary: query({ x: fc.constant('1') }) },
)

const roleLabels = ['visitor', 'user', 'another user', 'organizer', 'another organizer', 'admin']
const brokenLabels = [
  'Bearer and nothing',
  'Bearer and a space',
  'Bearer null',
  'Bearer a.b.c',
  'a lower-case scheme',
  'an admin token, tampered',
  'alg none',
  'a token of no account',
  'an 8 kB token',
  'the gateway key',
]
/** Mostly a real token of some role, so the request gets past the door; sometimes a broken one. */
const roleAuth = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...roleLabels) },
  { weight: 1, arbitrary: fc.constantFrom(...brokenLabels) },
)
/** For the gateway's own API: mostly its key, sometimes a wrong one or a role's token. */
export const gatewayAuth = fc.oneof(
  { weight: 5, arbitrary: fc.constant('the gateway key') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'Basic, wrong secret',
      'Basic, not base64',
      'Basic, no colon',
      'visitor',
      'admin',
    ),
  },
)

export const commonHeaders = fc.record(
  {
    accept: fc.constantFrom('application/json', 'text/html', '*/*', 'text/csv', 'nonsense', ''),
    origin: fc.constantFrom('http://localhost:5173', 'https://evil.example', 'null', 'not a url'),
    'accept-encoding': fc.constantFrom('gzip', 'br', 'deflate, gzip;q=0', 'nonsense'),
    'content-encoding': fc.constantFrom('gzip', 'br', 'identity', 'nonsense'),
    'x-forwarded-for': fc.constantFrom('1.2.3.4', 'not-an-ip', '127.0.0.1, 10.0.0.1'),
    'if-none-match': fc.constantFrom('*', 'W/"ledger-1"', '"x"', 'garbage'),
    range: fc.constantFrom('bytes=0-10', 'bytes=abc', 'bytes=999999999-', 'bytes=-1', 'bytes=0-1,2-3'),
  },
  { requiredKeys: [] },
)
const noHeaders = fc.oneof({ weight: 3, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: commonHeaders })

/**
 * A request to send. `auth` names whose credentials go with it (a role, a broken token, the gateway
 * key: the world's auth labels), and the runner adds them when it sends: what shrinks is the label.
 */
export type Req = {
  method: HTTPMethods
  url: string
  headers: Record<string, string>
  payload?: string | Buffer
  remoteAddress: string
  auth: string
}

/** One request: a path, a query, a body, a role's (or a broken) token, headers, a client address. */
export function http(parts: {
  method: HTTPMethods
  path: fc.Arbitrary<string>
  query?: fc.Arbitrary<string>
  body?: fc.Arbitrary<Body>
  auth?: fc.Arbitrary<string>
  headers?: fc.Arbitrary<Record<string, string>>
}): fc.Arbitrary<Req> {
  return fc
    .record({
      path: parts.path,
      query: parts.query ?? strayQuery,
      body: parts.body ?? strayBody,
      auth: parts.auth ?? roleAuth,
      headers: parts.headers ?? noHeaders,
      ip: fc.ipV4(),
      lie: fc.oneof(
        { weight: 9, arbitrary: fc.constant(null) },
        { weight: 1, arbitrary: fc.constantFrom(...contentTypeLies) },
      ),
    })
    .map(({ path, query, body, auth, headers, ip, lie }) => {
      const all: Record<string, string> = { ...headers }
      const type = lie ?? body.type
      if (type !== undefined) all['content-type'] = type
      return {
        method: parts.method,
        url: query ? `${path}?${query}` : path,
        headers: all,
        ...(body.payload === undefined ? {} : { payload: body.payload }),
        remoteAddress: ip,
        auth,
      }
    })
}

export const fixed = (path: string) => fc.constant(path)
/** An address nobody has yet: `tag` keeps apart the routes that sign up (each run starts from one seed). */
export const freshEmail = (tag: string) =>
  fc.tuple(fc.nat(), fc.nat()).map(([a, b]) => `fuzz-${tag}-${a.toString(36)}-${b.toString(36)}@example.com`)
export const badEmails = () =>
  fc.constantFrom(
    'no-at-sign',
    'a@b',
    'two@@example.com',
    `${'a'.repeat(250)}@example.com`,
    'UPPER@EXAMPLE.COM',
  )
export const badPasswords = () => fc.constantFrom('short', 'p'.repeat(257), '')
export const sessionStart = `${nextYear}-03-15T10:00`
export const sessionEnd = `${nextYear}-03-15T20:00:00+05:30`
export const badTimes = () =>
  fc.constantFrom(
    `${nextYear}-02-30T10:00`,
    `${nextYear}-03-15T24:00`,
    `${nextYear}-03-15T10:60`,
    `${nextYear}-03-15`,
    `${nextYear}-03-15T09:00`,
    '1999-01-01T00:00',
    '9999-12-31T23:59',
    `${nextYear}-03-15T10:00+99:99`,
  )

// The event form (multipart), made by hand so names, file names and framing can be anything.

export const validEventFields = (): Record<string, string> => ({
  title: 'Fuzz Fest',
  description: 'Generated input, genuinely.',
  date: `${nextYear}-04-01`,
  time: '19:00',
  location: 'Delhi',
  category: 'Music',
  ticketTypes: JSON.stringify(plenty),
})

export type Part = { name: string; value: string | Buffer; filename?: string; type?: string }
export type Framing =
  | 'ok'
  | 'no final boundary'
  | 'another boundary'
  | 'LF only'
  | 'no boundary'
  | 'cut short'

export function multipart(parts: Part[], framing: Framing): { payload: Buffer; type: string } {
  const boundary = 'fuzzBoundary7MA4YWxkTrZu0gW'
  const eol = framing === 'LF only' ? '\n' : '\r\n'
  const chunks: Buffer[] = []
  for (const part of parts) {
    const disposition =
      `Content-Disposition: form-data; name="${part.name}"` +
      (part.filename === undefined ? '' : `; filename="${part.filename}"`)
    chunks.push(
      Buffer.from(
        `--${boundary}${eol}${disposition}${eol}${part.type ? `Content-Type: ${part.type}${eol}` : ''}${eol}`,
      ),
      Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value),
      Buffer.from(eol),
    )
  }
  if (framing !== 'no final boundary' && framing !== 'cut short')
    chunks.push(Buffer.from(`--${boundary}--${eol}`))
  let payload = Buffer.concat(chunks)
  if (framing === 'cut short') payload = payload.subarray(0, Math.floor(payload.length / 2))
  const type =
    framing === 'no boundary'
      ? 'multipart/form-data'
      : `multipart/form-data; boundary=${framing === 'another boundary' ? 'somethingElse' : boundary}`
  return { payload, type }
}

const png = pngImage()
export const files = [
  png,
  png.subarray(0, png.length - 20),
  mp4Video(),
  webmVideo(),
  Buffer.from('#!/bin/sh\nrm -rf /\n'),
  Buffer.from('<script>alert(1)</script>'),
  Buffer.alloc(0),
  noise(5000, 1),
  Buffer.concat([Buffer.from('GIF89a'), noise(100, 2)]),
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0]),
]
const fileNames = [
  'poster.png',
  '../../etc/passwd.png',
  '..\\x.png',
  '/abs/path.png',
  'a\u0000.png',
  '😀.png',
  '',
  `${'x'.repeat(300)}.png`,
  'noext',
  'quote".png',
  'semi;colon.png',
]
const eventFieldNames = ['title', 'description', 'date', 'time', 'location', 'category', 'ticketTypes']
const ticketTypesTexts = [
  JSON.stringify(plenty),
  '[{"type":"VIP","price":-1,"quantity":1}]',
  '[{"type":"VIP","price":1e308,"quantity":1e308}]',
  '[{"type":"VIP","price":"NaN","quantity":"1"}]',
  '[{"type":"VIP","price":1.005,"quantity":1}]',
  '[{"type":"VIP","price":10,"quantity":1},{"type":"VIP","price":10,"quantity":1}]',
  '[{"type":"Balcony","price":10,"quantity":1}]',
  '[{"__proto__":{"polluted":"yes"},"type":"VIP","price":1,"quantity":1}]',
  '{}',
  '[]',
  'null',
  '[null]',
  'not json',
  '"[]"',
]
const fieldValue = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...Object.values(validEventFields())) },
  { weight: 2, arbitrary: fc.constantFrom(...ticketTypesTexts) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      `${nextYear}-02-30`,
      '1999-01-01',
      '9999-12-31',
      `${nextYear}-13-01`,
      '24:00',
      '7:00',
    ),
  },
  { weight: 3, arbitrary: nastyText },
)
const formPart: fc.Arbitrary<Part> = fc.oneof(
  fc
    .tuple(
      fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...eventFieldNames) },
        { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'images', 'ticketTypes[]', '') },
        { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
      ),
      fieldValue,
    )
    .map(([name, value]) => ({ name, value })),
  fc
    .record({
      name: fc.constantFrom('images', 'videos', 'images[]', 'videos[]', 'poster', '__proto__'),
      filename: fc.oneof(fc.constantFrom(...fileNames), fc.string({ maxLength: 20 })),
      value: fc.constantFrom(...files),
      type: fc.constantFrom(
        'image/png',
        'image/jpeg',
        'video/mp4',
        'text/plain',
        'application/octet-stream',
        '',
      ),
    })
    .map((part) => part as Part),
)
export const eventForm: fc.Arbitrary<Body> = fc
  .record({
    complete: fc.boolean(),
    parts: fc.array(formPart, { maxLength: 6 }),
    framing: fc.oneof(
      { weight: 6, arbitrary: fc.constant<Framing>('ok') },
      {
        weight: 1,
        arbitrary: fc.constantFrom<Framing>(
          'no final boundary',
          'another boundary',
          'LF only',
          'no boundary',
          'cut short',
        ),
      },
    ),
  })
  .map(({ complete, parts, framing }) => {
    const base = complete ? Object.entries(validEventFields()).map(([name, value]) => ({ name, value })) : []
    const form = multipart([...base, ...parts], framing)
    return { payload: form.payload, type: form.type }
  })

/** A request written out, for the examples every run tries before the generated ones. */
export const example = (
  method: HTTPMethods,
  url: string,
  auth: string,
  body: Body = {},
  headers: Record<string, string> = {},
): Req => ({
  method,
  url,
  headers: { ...headers, ...(body.type === undefined ? {} : { 'content-type': body.type }) },
  ...(body.payload === undefined ? {} : { payload: body.payload }),
  remoteAddress: '10.0.0.2',
  auth,
})
export const completeForm = (extra: Part[] = [], framing: Framing = 'ok'): Body => {
  const form = multipart(
    [...Object.entries(validEventFields()).map(([name, value]) => ({ name, value })), ...extra],
    framing,
  )
  return { payload: form.payload, type: form.type }
}
