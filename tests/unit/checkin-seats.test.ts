// Reserved seating at the door (issue 40): the web's checks of a scan reply and of the manifest keep
// a seated pass's seat as the server sends it (contracts/checkin.ts), the pass list and the door's
// own decision carry the manifest's seat, and the scan result shows "Stalls, Row F, Seat 12" on its
// own line, online (the server's seat) and offline (the pass list's), and nothing for an unseated pass.
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import * as server from '../../contracts/checkin.ts'
import { Manifest, ScanReply } from '../../web/src/api/checkin.ts'
import { decideScan } from '../../web/src/screens/checkin/decide.ts'
import { parsePassCode } from '../../web/src/screens/checkin/pass-code.ts'
import { passListOf } from '../../web/src/screens/checkin/pass-list.ts'
import type { ScanRecord } from '../../web/src/screens/checkin/scan-log.ts'
import { ScanResultScreen } from '../../web/src/screens/checkin/scan-result.tsx'
import { makePassCode, manifestOf, passKeys } from './checkin-support.ts'

const keys = passKeys()
const NOW = '2031-01-01T18:30:00.000Z'
const SEAT = { id: 'seat1a2b3c', section: 'Stalls', row: 'F', number: 12 }

const reply = (changes: Partial<ScanReply> = {}) => ({
  code: 'TKT1.x.y',
  result: 'admitted' as const,
  admittedAt: NOW,
  device: 'door-1',
  ticketType: 'Stalls',
  holder: 'asha',
  ...changes,
})

const seatedManifest = () =>
  manifestOf(
    keys.publicKey,
    [
      ['ord_a.1.0', 0, null, 0, 'asha'],
      ['ord_b.1.0', 0, null, 1, 'ravi'],
    ],
    { ticketTypes: ['Stalls', 'General Admission'], seats: { 'ord_a.1.0': 'Stalls, Row F, Seat 12' } },
  )

const offlineDecision = (ticketId: string) =>
  decideScan({
    eventId: 'evt_1',
    code: parsePassCode(makePassCode({ e: 'evt_1', t: ticketId, a: 1, v: 0 }, keys.privateKey)),
    signatureValid: true,
    list: passListOf(v.parse(Manifest, seatedManifest())),
    admittedHere: new Map(),
    now: NOW,
  })

const record = (local: ScanRecord['local'], server: ScanRecord['server']): ScanRecord => ({
  id: 'scan-1',
  eventId: 'evt_1',
  code: 'TKT1.x.y',
  scannedAt: NOW,
  device: 'door-1',
  local,
  server,
})

const shown = (scan: ScanRecord) =>
  renderToStaticMarkup(createElement(ScanResultScreen, { record: scan, opensAt: null, onDismiss() {} }))

/** the texts of the result's lines, in order */
const lines = (html: string) =>
  [...html.matchAll(/<p class="([^"]+)">([^<]*)<\/p>/g)].map((m) => [m[1], m[2]])

describe('the door’s checks keep a seat', () => {
  it('keeps a scan reply’s seat as the server sends it, and parses an unseated one as before', () => {
    const seated = v.parse(server.ScanReply, reply({ seat: SEAT }))
    expect(v.parse(ScanReply, seated)).toEqual(seated)
    expect(v.parse(ScanReply, seated).seat).toEqual(SEAT)
    const unseated = v.parse(ScanReply, reply())
    expect(unseated).toEqual(reply())
    expect('seat' in unseated).toBe(false)
  })

  it('keeps the manifest’s seats, and the pass list and the offline decision carry a pass’s seat', () => {
    const sent = v.parse(server.Manifest, { ...seatedManifest(), opensAt: NOW })
    expect(v.parse(Manifest, sent).seats).toEqual({ 'ord_a.1.0': 'Stalls, Row F, Seat 12' })
    const { seats: _, ...unseated } = seatedManifest()
    expect('seats' in v.parse(Manifest, unseated)).toBe(false)

    const list = passListOf(v.parse(Manifest, seatedManifest()))
    expect(list.passes.get('ord_a.1.0')?.seat).toBe('Stalls, Row F, Seat 12')
    expect(list.passes.get('ord_b.1.0')).not.toHaveProperty('seat')
    expect(offlineDecision('ord_a')).toMatchObject({ result: 'admitted', seat: 'Stalls, Row F, Seat 12' })
    expect(offlineDecision('ord_b')).not.toHaveProperty('seat')
  })
})

describe('the scan result shows a seated pass’s seat', () => {
  it('offline, from the pass list: on its own line after the ticket type', () => {
    expect(lines(shown(record(offlineDecision('ord_a'), null)))).toEqual([
      ['scan-result-word', 'Admitted'],
      ['scan-result-holder', 'asha'],
      ['scan-result-type', 'Stalls'],
      ['scan-result-seat', 'Stalls, Row F, Seat 12'],
      ['scan-result-admission', 'Admission 1'],
      ['scan-result-note', expect.any(String)],
    ])
  })

  it('online, from the server’s answer, even when the pass list has no seat for it', () => {
    const local = { ...offlineDecision('ord_b'), ticketType: null, holder: null }
    const html = shown(record(local, v.parse(ScanReply, reply({ seat: SEAT }))))
    expect(lines(html)).toContainEqual(['scan-result-seat', 'Stalls, Row F, Seat 12'])
    expect(html.indexOf('Stalls, Row F, Seat 12')).toBeGreaterThan(html.indexOf('scan-result-type'))
  })

  it('shows no seat line for an unseated pass', () => {
    const unseated = shown(record(offlineDecision('ord_b'), v.parse(ScanReply, reply())))
    expect(unseated).not.toContain('scan-result-seat')
    expect(unseated).not.toContain('Seat')
    expect(lines(unseated).map(([name]) => name)).toEqual([
      'scan-result-word',
      'scan-result-holder',
      'scan-result-type',
      'scan-result-admission',
      'scan-result-note',
    ])
  })
})
