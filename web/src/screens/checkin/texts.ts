// What the door says (SPEC has no texts for it; issue 16 names the results). One place, so the
// screen and its tests read the same words.
import type { LocalResult } from './decide.ts'

export const resultTexts: Record<LocalResult, string> = {
  admitted: 'Admitted',
  'already-admitted': 'Already admitted',
  void: 'Void ticket',
  invalid: 'Invalid code',
  'wrong-event': 'Wrong event',
  'too-early': 'Too early',
  unchecked: 'Cannot check offline',
}

export const checkinTexts = {
  heading: 'Check-in',
  loadingList: 'Loading the pass list…',
  noList: 'No pass list on this device yet: connect once to check codes offline.',
  noVerify:
    'This browser cannot check pass signatures: codes are checked against the pass list, and the server confirms each one.',
  startCamera: 'Start camera',
  stopCamera: 'Stop camera',
  cameraFailed: 'The camera could not be started',
  codeLabel: 'Pass code',
  check: 'Check',
  nextScan: 'Next scan',
  onDevice: 'Checked on this device; not confirmed yet',
  confirmed: 'Confirmed by the server',
  doubleEntries: 'Double entries',
  noDoubleEntries: 'No double entries.',
  turnedAway: 'turned away',
  letInHere: 'let in here',
  recorded: 'recorded by the server',
  notSent: 'not sent yet',
  notOpenYet: 'Check-in has not opened yet.',
  opensAt: 'Check-in opens',
  clockOff: 'This device’s clock is off: scans are timed by the server’s clock.',
  lateRefusals: 'Refused after entry',
  recentScans: 'Recent scans',
  noScans: 'No scans yet.',
  allSent: 'Every scan is sent.',
  sending: 'Sending scans…',
  storeFailed: 'This device cannot keep scans: send them before closing this page.',
  tryAgain: 'Try again',
} as const
