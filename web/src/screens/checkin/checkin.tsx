// /checkin/{eventId} (issue 16): the door. The camera or a typed code; each scan decided at once on
// this device and shown full screen, green for admitted and red for anything else, with the holder
// and ticket type; queued, and sent to the server whenever there is a network, whose answer then
// stands. Works with no network once opened online (the service worker keeps the app, IndexedDB
// the pass list and the scans). Which accounts may scan is the server's to say: its refusal shows.
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { type FormEvent, useEffect, useId, useMemo, useRef, useState, useSyncExternalStore } from 'react'
import { sendScans } from '../../api/checkin.ts'
import { ApiError } from '../../api/client.ts'
import { checkinManifestQuery, keys } from '../../api/queries.ts'
import { coalescedRefresh } from '../../live/refresh.ts'
import { formatClock, formatInstantIn } from '../../ui/format.ts'
import { useEventZone } from '../../ui/use-site.ts'
import { type CameraReader, startCamera } from './camera.ts'
import { deviceId } from './device.ts'
import { createDoor, type Door, type DoorSnapshot } from './door.ts'
import { indexedDbStore, memoryStore } from './door-store.ts'
import { InvitationOffer } from './invitations.tsx'
import { type OfflineCopy, offlineCopyTexts, useOfflineCopy } from './offline-shell.ts'
import { repeatFilter } from './repeats.ts'
import { isDoubleEntry, isLateRefusal, resultOf, type ScanRecord, waiting, wasLetIn } from './scan-log.ts'
import { ScanResultScreen } from './scan-result.tsx'
import { resultTexts, checkinTexts as texts } from './texts.ts'
import './checkin.css'

const checkinRoute = getRouteApi('/checkin/$eventId')

/** the scans listed under "Recent scans" */
const RECENT = 20
/** the least time between two refreshes of the pass list that syncs ask for */
const MANIFEST_AFTER_SYNC_MS = 10_000

const statusOf = (error: unknown) => (error instanceof ApiError ? error.status : 0)
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

function useOnline(): boolean {
  return useSyncExternalStore(
    (changed) => {
      window.addEventListener('online', changed)
      window.addEventListener('offline', changed)
      return () => {
        window.removeEventListener('online', changed)
        window.removeEventListener('offline', changed)
      }
    },
    () => navigator.onLine,
  )
}

/** the door of this event on this device, for as long as the screen is open */
function useDoor(eventId: string): Door | null {
  const queryClient = useQueryClient()
  const [door, setDoor] = useState<Door | null>(null)
  useEffect(() => {
    const refresh = coalescedRefresh(queryClient)
    const made = createDoor({
      eventId,
      device: deviceId(),
      store: typeof indexedDB === 'undefined' ? memoryStore() : indexedDbStore(),
      send: sendScans,
      statusOf,
      messageOf,
      // what others admitted reaches this door's pass list soon after each sync
      onSynced: () =>
        refresh({ queryKey: keys.checkinManifest(eventId), minInterval: MANIFEST_AFTER_SYNC_MS }),
    })
    setDoor(made)
    void made.load()
    return () => made.stop()
  }, [eventId, queryClient])
  return door
}

const noSnapshot = (): DoorSnapshot | null => null
const noSubscription = () => () => {}

export function CheckinScreen() {
  const { eventId } = checkinRoute.useParams()
  const door = useDoor(eventId)
  const snapshot = useSyncExternalStore(door?.subscribe ?? noSubscription, door?.snapshot ?? noSnapshot)
  const manifest = useQuery(checkinManifestQuery(eventId))
  const online = useOnline()
  const queryClient = useQueryClient()
  const offlineCopy = useOfflineCopy(online)

  // fresh from the server: its time tells how far off this device's clock is
  useEffect(() => {
    if (door && manifest.data) void door.takeManifest(manifest.data, manifest.dataUpdatedAt)
  }, [door, manifest.data, manifest.dataUpdatedAt])

  // Back online: send what waited and fetch the pass list again at once.
  const wasOnline = useRef(online)
  useEffect(() => {
    const back = online && !wasOnline.current
    wasOnline.current = online
    if (!back || !door) return
    door.sync()
    void queryClient.invalidateQueries({ queryKey: keys.checkinManifest(eventId) })
  }, [online, door, eventId, queryClient])

  const [shownId, setShownId] = useState<string | null>(null)
  const zone = useEventZone()
  const scan = async (text: string) => {
    if (!door) return
    const record = await door.scan(text)
    setShownId(record.id)
    if (record.local.result !== 'admitted') navigator.vibrate?.([120, 60, 120])
  }

  if (!door || !snapshot) return <section className="page checkin-page" aria-busy="true" />
  const shown = shownId ? snapshot.records.findLast((record) => record.id === shownId) : undefined
  const manifestError = manifest.isError ? messageOf(manifest.error) : null
  // refused: perhaps invited to this door and not accepted yet
  const refused = manifest.isError && statusOf(manifest.error) === 403

  return (
    <section className="page checkin-page" data-online={online ? 'yes' : 'no'}>
      <DoorStatus
        snapshot={snapshot}
        online={online}
        offlineCopy={offlineCopy}
        manifestError={manifestError}
        onRetry={door.sync}
      />
      {refused && <InvitationOffer eventId={eventId} />}
      <Scanner onCode={(text) => void scan(text)} />
      <DoubleEntries records={snapshot.records} />
      <RecentScans records={snapshot.records} />
      {shown && (
        <ScanResultScreen
          key={shown.id}
          record={shown}
          opensAt={snapshot.list?.opensAt ?? null}
          zone={zone}
          onDismiss={() => setShownId(null)}
        />
      )}
    </section>
  )
}

function DoorStatus({
  snapshot,
  online,
  offlineCopy,
  manifestError,
  onRetry,
}: {
  snapshot: DoorSnapshot
  online: boolean
  offlineCopy: OfflineCopy
  manifestError: string | null
  onRetry(): void
}) {
  const { list, records, sync } = snapshot
  // the door's times in the event's zone, labelled (7:30 pm IST), wherever the device's clock is set
  const zone = useEventZone()
  const admittedHere = records.filter((record) => resultOf(record) === 'admitted').length
  const toSend = records.filter(waiting).length
  return (
    <header className="card checkin-header">
      <h1>{texts.heading}</h1>
      <p className="checkin-event">
        {list ? list.title : snapshot.loaded ? texts.noList : texts.loadingList}
      </p>
      {list && !snapshot.verifying && <p className="form-hint">{texts.noVerify}</p>}
      {manifestError && !list && <p className="error-text">{manifestError}</p>}
      <dl className="checkin-facts">
        <div>
          <dt>Connection</dt>
          <dd className={online ? 'checkin-online' : 'checkin-offline'}>{online ? 'Online' : 'Offline'}</dd>
        </div>
        <div>
          <dt>Offline use</dt>
          <dd className={`checkin-offline-copy-${offlineCopy}`}>{offlineCopyTexts[offlineCopy]}</dd>
        </div>
        <div>
          <dt>Admitted here</dt>
          <dd>{admittedHere}</dd>
        </div>
        <div>
          <dt>Waiting to send</dt>
          <dd>{toSend}</dd>
        </div>
        <div>
          <dt>Pass list</dt>
          <dd className="checkin-list-age">
            {list ? `as of ${formatInstantIn(list.generatedAt, zone)}` : '—'}
          </dd>
        </div>
        {list?.opensAt && (
          <div>
            <dt>{Date.parse(list.opensAt) > Date.now() + snapshot.clockOffset ? 'Opens' : 'Opened'}</dt>
            <dd className="checkin-opens">{formatInstantIn(list.opensAt, zone)}</dd>
          </div>
        )}
      </dl>
      {snapshot.clockOffset !== 0 && <p className="form-hint checkin-clock">{texts.clockOff}</p>}
      <div className="checkin-sync" role="status">
        {sync.kind === 'sending' ? (
          texts.sending
        ) : sync.kind === 'retrying' ? (
          `${toSend} waiting: ${sync.message} Trying again by itself.`
        ) : sync.kind === 'refused' ? (
          <span className="form-error">
            {sync.message}{' '}
            <button type="button" className="button-secondary" onClick={onRetry}>
              {texts.tryAgain}
            </button>
          </span>
        ) : toSend === 0 && records.length > 0 ? (
          texts.allSent
        ) : null}
      </div>
      {snapshot.storeFailed && <p className="form-error">{texts.storeFailed}</p>}
    </header>
  )
}

function Scanner({ onCode }: { onCode(text: string): void }) {
  const video = useRef<HTMLVideoElement>(null)
  const reader = useRef<CameraReader | null>(null)
  const [camera, setCamera] = useState<'off' | 'starting' | 'on'>('off')
  const [cameraError, setCameraError] = useState<string | null>(null)
  const [typed, setTyped] = useState('')
  const repeats = useMemo(() => repeatFilter(), [])
  const latest = useRef(onCode)
  latest.current = onCode
  const codeId = useId()

  const start = async () => {
    if (!video.current || reader.current) return
    setCamera('starting')
    setCameraError(null)
    try {
      reader.current = await startCamera(video.current, (text) => {
        if (repeats.isNew(text, performance.now())) latest.current(text)
      })
      setCamera('on')
    } catch (error) {
      setCamera('off')
      setCameraError(`${texts.cameraFailed}: ${messageOf(error)}`)
    }
  }
  const stop = () => {
    reader.current?.stop()
    reader.current = null
    setCamera('off')
  }
  useEffect(() => () => reader.current?.stop(), [])

  // A camera already allowed for this site starts by itself.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the screen opens
  useEffect(() => {
    void navigator.permissions
      ?.query({ name: 'camera' as PermissionName })
      .then((permission) => {
        if (permission.state === 'granted') void start()
      })
      .catch(() => {})
  }, [])

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const code = typed.trim()
    if (!code) return
    setTyped('')
    latest.current(code)
  }

  return (
    <div className="card checkin-scanner">
      <div className={`checkin-video checkin-video-${camera}`}>
        <video ref={video} aria-label="Camera" muted playsInline />
      </div>
      <div className="checkin-camera-actions">
        {camera === 'off' ? (
          <button type="button" onClick={() => void start()}>
            {texts.startCamera}
          </button>
        ) : (
          <button type="button" className="button-secondary" onClick={stop} disabled={camera === 'starting'}>
            {texts.stopCamera}
          </button>
        )}
      </div>
      {cameraError && (
        <p className="form-error" role="alert">
          {cameraError}
        </p>
      )}
      <form className="checkin-code" onSubmit={submit}>
        <label htmlFor={codeId}>{texts.codeLabel}</label>
        <div className="checkin-code-row">
          <input
            id={codeId}
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            placeholder="TKT1.…"
          />
          <button type="submit">{texts.check}</button>
        </div>
      </form>
    </div>
  )
}

const who = (record: ScanRecord) => record.server?.holder ?? record.local.holder ?? '—'
const typeOf = (record: ScanRecord) => record.server?.ticketType ?? record.local.ticketType ?? '—'

/**
 * Every scan of a pass admitted before, as the organizer's page lists them: the ones this device
 * turned away, and the ones it let in offline that another door had admitted first. Each says
 * whether the server has recorded it, and when the pass was first admitted (the server's word
 * once it answered).
 */
function DoubleEntries({ records }: { records: readonly ScanRecord[] }) {
  const headingId = useId()
  const zone = useEventZone()
  const doubles = records.filter(isDoubleEntry).reverse()
  const late = records.filter(isLateRefusal)
  return (
    <section className="card checkin-doubles" aria-labelledby={headingId}>
      <h2 id={headingId}>{texts.doubleEntries}</h2>
      {doubles.length === 0 ? (
        <p className="empty-text">{texts.noDoubleEntries}</p>
      ) : (
        <ul className="checkin-double-list" aria-labelledby={headingId}>
          {doubles.map((record) => {
            const first = record.server?.admittedAt ?? record.local.admittedAt
            return (
              <li key={record.id} data-let-in={wasLetIn(record) ? 'yes' : 'no'}>
                <strong>{who(record)}</strong> · {typeOf(record)}
                {record.local.admission !== null && ` · Admission ${record.local.admission}`} —{' '}
                {wasLetIn(record) ? texts.letInHere : texts.turnedAway} at {formatClock(record.scannedAt)},
                first admitted {first ? formatInstantIn(first, zone) : 'elsewhere'} ·{' '}
                <span className="checkin-double-sent">{record.server ? texts.recorded : texts.notSent}</span>
              </li>
            )
          })}
        </ul>
      )}
      {late.length > 0 && (
        <>
          <h3>{texts.lateRefusals}</h3>
          <ul className="checkin-double-list">
            {late.map((record) => (
              <li key={record.id}>
                <strong>{who(record)}</strong> · {typeOf(record)} — let in here at{' '}
                {formatClock(record.scannedAt)}; the server says {resultTexts[resultOf(record)]}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  )
}

function RecentScans({ records }: { records: readonly ScanRecord[] }) {
  const headingId = useId()
  const recent = records.slice(-RECENT).reverse()
  return (
    <section className="card checkin-recent" aria-labelledby={headingId}>
      <h2 id={headingId}>{texts.recentScans}</h2>
      {recent.length === 0 ? (
        <p className="empty-text">{texts.noScans}</p>
      ) : (
        <div className="table-scroll">
          <table aria-label={texts.recentScans}>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Result</th>
                <th scope="col">Holder</th>
                <th scope="col">Ticket type</th>
                <th scope="col">Sent</th>
              </tr>
            </thead>
            <tbody>
              {recent.map((record) => (
                <tr key={record.id} data-result={resultOf(record)}>
                  <td>{formatClock(record.scannedAt)}</td>
                  <td>{resultTexts[resultOf(record)]}</td>
                  <td>{who(record)}</td>
                  <td>{typeOf(record)}</td>
                  <td>{record.server ? 'Yes' : waiting(record) ? 'Waiting' : 'Not sent'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}
