// The organizer's seat map (issue 40), a section of its event's page: the saved map live with its
// sold, held, free and blocked seats counted, and the plan editor: sections drawn from a grid of
// rows and seats (each a ticket type of the event), seats clicked to block them or keep them for a
// wheelchair or a companion, the stage placed above, the whole previewed as buyers will see it, and
// saved (the server's message shown, and the seats a refusal names). A draft may start from another
// of the organizer's events' plans (plan-copy.tsx); the saved map's seats answer who holds them
// (seat-holders.tsx).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useId, useMemo, useState } from 'react'
import { MAX_PLAN_SEATS, type SeatMapView } from '../../../../contracts/seating.ts'
import { ApiError } from '../../api/client.ts'
import { eventQuery, keys } from '../../api/queries.ts'
import { refusedSeats, saveSeatMap, seatMapQuery } from '../../api/seating.ts'
import { seatCounts } from '../../live/seat-changes.ts'
import { useSeatMapRoom } from '../../live/use-seat-room.ts'
import { Fetched, messageOr } from '../../ui/fetched.tsx'
import { formatRupees } from '../../ui/rupees.ts'
import { seatLine } from '../../ui/seat-label.ts'
import { PlanCopy } from './plan-copy.tsx'
import {
  bodyOf,
  type Draft,
  draftOf,
  emptyDraft,
  moveSeat,
  moveSection,
  moveStepOf,
  placeOf,
  previewOf,
  type SeatTool,
  seatCount,
  statusesOf,
  toggleSeat,
} from './plan-draft.ts'
import { firstRowRefusal, gridSection, type Numbering, parseAisles, SECTION_GAP } from './plan-grid.ts'
import { planBox, SEAT_PITCH, stageAbove } from './plan-layout.ts'
import { assignType, unassignedSections } from './plan-reuse.ts'
import { SeatHolders } from './seat-holders.tsx'
import { SeatKey, SeatPlan } from './seat-plan.tsx'
import { pickedSeat } from './seat-selection.ts'

export const editorTexts = {
  heading: 'Seat map',
  none: 'This event has no seat map yet: its tickets are sold by count. Draw one below to sell seats.',
  preview: 'Seat map preview',
  save: 'Save seat map',
  saving: 'Saving…',
  heldOrSold: (seats: string) => `These seats are held or sold: ${seats}.`,
  empty: 'Add a section before saving.',
  unassigned: (sections: string) => `Choose a ticket type for ${sections}.`,
  chooseType: 'Choose a ticket type',
  moveChosen: (seat: string) => `Move ${seat}`,
  moveNone: 'Click a seat on the preview to choose it.',
} as const

/** the four ways a move button goes, with what it says to a screen reader (times the plan's step) */
const MOVES = [
  ['←', 'left', -1, 0],
  ['→', 'right', 1, 0],
  ['↑', 'up', 0, -1],
  ['↓', 'down', 0, 1],
] as const

type TicketTypeChoice = { name: string; price: number }

export function SeatMapSection({ eventId }: { eventId: string }) {
  const event = useQuery(eventQuery(eventId))
  const saved = useQuery(seatMapQuery(eventId))
  // the last save's outcome: kept here, as a saved plan starts the editor afresh
  const [outcome, setOutcome] = useState<Outcome | null>(null)
  useSeatMapRoom(eventId)
  return (
    <section className="plan-editor" aria-labelledby="seat-map-heading">
      <h3 id="seat-map-heading">{editorTexts.heading}</h3>
      <Fetched
        query={saved}
        failed={messageOr('The seat map could not be read.')}
        frame={(content) => content}
      >
        {(map) => (
          <Fetched
            query={event}
            failed={messageOr('Error fetching event details.')}
            frame={(content) => content}
          >
            {(shown) => (
              <>
                {map ? (
                  <>
                    <SavedCounts map={map} />
                    <SeatHolders eventId={eventId} map={map} />
                  </>
                ) : (
                  <p>{editorTexts.none}</p>
                )}
                <PlanEditor
                  // a newly saved plan starts a new draft
                  key={map?.version ?? 'none'}
                  eventId={eventId}
                  saved={map}
                  types={shown.ticketTypes.map((type) => ({ name: type.type, price: type.price }))}
                  onOutcome={setOutcome}
                />
                {outcome && (
                  <div
                    className={outcome.ok ? 'form-hint' : 'form-error'}
                    role={outcome.ok ? 'status' : 'alert'}
                  >
                    <p>{outcome.message}</p>
                    {outcome.detail && <p className="form-error-detail">{outcome.detail}</p>}
                  </div>
                )}
              </>
            )}
          </Fetched>
        )}
      </Fetched>
    </section>
  )
}

/** the saved map's seats by status, live */
function SavedCounts({ map }: { map: SeatMapView }) {
  const counts = useMemo(() => seatCounts(map), [map])
  return (
    <dl className="seat-counts" aria-label="Seats by status">
      <div>
        <dt>Sold</dt>
        <dd>{counts.sold}</dd>
      </div>
      <div>
        <dt>Held</dt>
        <dd>{counts.held}</dd>
      </div>
      <div>
        <dt>Free</dt>
        <dd>{counts.free}</dd>
      </div>
      <div>
        <dt>Blocked</dt>
        <dd>{counts.blocked}</dd>
      </div>
    </dl>
  )
}

type Outcome = { ok: boolean; message: string; detail?: string }

function PlanEditor(props: {
  eventId: string
  saved: SeatMapView | null
  types: TicketTypeChoice[]
  onOutcome(outcome: Outcome | null): void
}) {
  const { eventId, saved, types, onOutcome: setOutcome } = props
  const queryClient = useQueryClient()
  const [draft, setDraft] = useState<Draft>(() => (saved ? draftOf(saved) : emptyDraft))
  const [tool, setTool] = useState<SeatTool>('blocked')
  /** the seat chosen to be moved (its preview id), with the move tool */
  const [moving, setMoving] = useState<string | null>(null)
  const prices = useMemo(() => new Map(types.map((type) => [type.name, type.price])), [types])
  const typeNames = useMemo(() => types.map((type) => type.name), [types])
  const statuses = useMemo(() => statusesOf(saved), [saved])
  // half a seat, whatever the plan's units
  const step = useMemo(() => moveStepOf(draft), [draft])
  const preview = useMemo(
    () => previewOf(draft, eventId, prices, statuses),
    [draft, eventId, prices, statuses],
  )
  const noneSelected = useMemo(() => new Set<string>(), [])
  const movingNow = tool === 'move' && moving !== null && placeOf(moving) ? moving : null
  const chosenToMove = useMemo(
    () => (movingNow ? new Set([movingNow]) : noneSelected),
    [movingNow, noneSelected],
  )
  /** the seat chosen to be moved, as the preview names it: "Stalls, Row A, Seat 3" */
  const movingName = (() => {
    const place = movingNow ? placeOf(movingNow) : null
    const section = place ? draft.sections[place.section] : undefined
    const row = place ? section?.rows[place.row] : undefined
    const seat = place ? row?.seats[place.seat] : undefined
    return section && row && seat ? `${section.name}, Row ${row.label}, Seat ${seat.number}` : null
  })()

  const change = (next: Draft) => {
    setDraft(next)
    setOutcome(null)
  }

  const save = useMutation({
    mutationFn: () => saveSeatMap(eventId, bodyOf(draft)),
    onSuccess: ({ message, seatmap }) => {
      setOutcome({ ok: true, message })
      if (seatmap) queryClient.setQueryData(keys.seatMap(eventId), seatmap)
      void queryClient.invalidateQueries({ queryKey: keys.seatMap(eventId) })
      // the seated types' capacities follow the plan
      void queryClient.invalidateQueries({ queryKey: keys.event(eventId) })
    },
    onError: (error) => {
      const seats = refusedSeats(error)
      // in the plan's order as people read it (row B, seat 3 before seat 10)
      const named = seats
        .map((id) => {
          const seat = saved ? pickedSeat(saved, id) : null
          return seat ? seatLine(seat) : id
        })
        .sort((a, b) => a.localeCompare(b, undefined, { numeric: true }))
      // what the message says already is not said again below it
      const issues =
        error instanceof ApiError
          ? [...new Set(error.issues.map((issue) => issue.message))]
              .filter((text) => text !== error.message)
              .join(' ')
          : ''
      setOutcome({
        ok: false,
        message: error.message,
        ...(named.length > 0
          ? { detail: editorTexts.heldOrSold(named.join('; ')) }
          : issues
            ? { detail: issues }
            : {}),
      })
    },
  })

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (draft.sections.length === 0) {
      setOutcome({ ok: false, message: editorTexts.empty })
      return
    }
    const unassigned = unassignedSections(draft, typeNames)
    if (unassigned.length > 0) {
      setOutcome({ ok: false, message: editorTexts.unassigned(unassigned.join(', ')) })
      return
    }
    save.mutate()
  }

  return (
    <>
      <PlanCopy eventId={eventId} typeNames={typeNames} onCopy={change} />
      <GridForm
        draft={draft}
        types={types}
        onAdd={(section) => change({ ...draft, sections: [...draft.sections, section] })}
      />
      {draft.sections.length > 0 && (
        <section aria-labelledby="plan-sections-heading">
          <h4 id="plan-sections-heading">Sections</h4>
          <ul className="plan-sections">
            {draft.sections.map((section, s) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a section's place in the plan is its identity here
              <li key={s}>
                {section.name} ·{' '}
                <select
                  aria-label={`Ticket type of ${section.name}`}
                  value={prices.has(section.ticketType) ? section.ticketType : ''}
                  onChange={(e) => change(assignType(draft, s, e.target.value))}
                >
                  {!prices.has(section.ticketType) && <option value="">{editorTexts.chooseType}</option>}
                  {types.map((type) => (
                    <option key={type.name} value={type.name}>
                      {`${type.name} - ${formatRupees(type.price)}`}
                    </option>
                  ))}
                </select>{' '}
                · {section.rows.reduce((n, row) => n + row.seats.length, 0)} seats{' '}
                <span className="plan-section-tools">
                  {MOVES.map(([arrow, way, dx, dy]) => (
                    <button
                      key={way}
                      type="button"
                      className="button-secondary"
                      aria-label={`Move section ${section.name} ${way}`}
                      onClick={() => change(moveSection(draft, s, dx * step, dy * step))}
                    >
                      {arrow}
                    </button>
                  ))}{' '}
                  <button
                    type="button"
                    className="button-secondary"
                    aria-label={`Remove section ${section.name}`}
                    onClick={() => {
                      setMoving(null)
                      change({ ...draft, sections: draft.sections.filter((_, i) => i !== s) })
                    }}
                  >
                    Remove
                  </button>
                </span>
              </li>
            ))}
          </ul>
          <p>{seatCount(draft)} seats in all.</p>
        </section>
      )}
      <StageFields draft={draft} onChange={change} />
      <fieldset>
        <legend>Clicking a seat on the preview</legend>
        {(
          [
            ['blocked', 'Blocks or unblocks it (not for sale)'],
            ['wheelchair', 'Marks it as a wheelchair space, or unmarks it'],
            ['companion', 'Marks it as a companion seat, or unmarks it'],
            ['move', 'Chooses it to move with the arrows'],
          ] as const
        ).map(([value, text]) => (
          <label key={value} className="radio">
            <input
              type="radio"
              name="seat-tool"
              value={value}
              checked={tool === value}
              onChange={() => setTool(value)}
            />{' '}
            {text}
          </label>
        ))}
      </fieldset>
      {tool === 'move' && draft.sections.length > 0 && (
        <fieldset className="plan-move">
          <legend>{movingName ? editorTexts.moveChosen(movingName) : editorTexts.moveNone}</legend>
          {MOVES.map(([arrow, way, dx, dy]) => (
            <button
              key={way}
              type="button"
              className="button-secondary"
              aria-label={`Move the seat ${way}`}
              disabled={!movingNow}
              onClick={() => movingNow && change(moveSeat(draft, movingNow, dx * step, dy * step))}
            >
              {arrow}
            </button>
          ))}
        </fieldset>
      )}
      {draft.sections.length > 0 && (
        <>
          <SeatKey mode="edit" />
          <SeatPlan
            map={preview}
            label={editorTexts.preview}
            selected={chosenToMove}
            mode="edit"
            onActivate={(id) =>
              tool === 'move'
                ? setMoving((chosen) => (chosen === id ? null : id))
                : change(toggleSeat(draft, id, tool))
            }
          />
        </>
      )}
      <form onSubmit={submit} className="form-actions">
        <button type="submit" disabled={save.isPending}>
          {save.isPending ? editorTexts.saving : editorTexts.save}
        </button>
      </form>
    </>
  )
}

/** where the next section goes: under the others */
const nextTop = (draft: Draft) => {
  if (draft.sections.length === 0) return 0
  const seats = planBox({ stage: null, sections: draft.sections }, 0)
  return seats.y + seats.h + SECTION_GAP
}

function GridForm(props: {
  draft: Draft
  types: TicketTypeChoice[]
  onAdd(section: Draft['sections'][number]): void
}) {
  const { draft, types, onAdd } = props
  const id = useId()
  const [name, setName] = useState('')
  const [ticketType, setTicketType] = useState(types[0]?.name ?? '')
  const [rows, setRows] = useState('10')
  const [seatsPerRow, setSeatsPerRow] = useState('20')
  const [firstRow, setFirstRow] = useState('A')
  const [numbering, setNumbering] = useState<Numbering>('left-to-right')
  const [aisles, setAisles] = useState('')
  const [curve, setCurve] = useState('0')
  const [refusal, setRefusal] = useState<string | null>(null)

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const rowCount = Number(rows)
    const perRow = Number(seatsPerRow)
    const bend = Number(curve)
    const gaps = parseAisles(aisles)
    const why = !name.trim()
      ? 'A section needs a name.'
      : draft.sections.some((section) => section.name === name.trim())
        ? 'Another section has that name.'
        : !ticketType
          ? 'A section needs a ticket type.'
          : !Number.isInteger(rowCount) || rowCount < 1 || rowCount > 200
            ? 'Rows: a whole number from 1 to 200.'
            : !Number.isInteger(perRow) || perRow < 1 || perRow > 500
              ? 'Seats per row: a whole number from 1 to 500.'
              : (firstRowRefusal(firstRow) ??
                (gaps === null
                  ? 'Aisles: seat numbers separated by commas (4, 12).'
                  : !Number.isFinite(bend) || bend < 0 || bend > 20
                    ? 'Curve: a number from 0 to 20.'
                    : seatCount(draft) + rowCount * perRow > MAX_PLAN_SEATS
                      ? `A plan has at most ${MAX_PLAN_SEATS} seats.`
                      : null))
    setRefusal(why)
    if (why !== null || gaps === null) return
    onAdd(
      gridSection({
        name,
        ticketType,
        rows: rowCount,
        seatsPerRow: perRow,
        firstRow,
        numbering,
        aislesAfter: gaps,
        curve: bend,
        // a curved row's ends come up towards the stage by `bend` seats
        top: nextTop(draft) + bend * SEAT_PITCH,
      }),
    )
    setName('')
  }

  return (
    <form onSubmit={submit} aria-labelledby={`${id}-legend`}>
      <fieldset>
        <legend id={`${id}-legend`}>Add a section</legend>
        <div className="field">
          <label htmlFor={`${id}-name`}>Section name</label>
          <input id={`${id}-name`} value={name} onChange={(e) => setName(e.target.value)} maxLength={60} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-type`}>Ticket type</label>
          <select id={`${id}-type`} value={ticketType} onChange={(e) => setTicketType(e.target.value)}>
            {types.map((type) => (
              <option key={type.name} value={type.name}>
                {`${type.name} - ${formatRupees(type.price)}`}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-rows`}>Rows</label>
          <input
            id={`${id}-rows`}
            type="number"
            min={1}
            max={200}
            value={rows}
            onChange={(e) => setRows(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-seats`}>Seats per row</label>
          <input
            id={`${id}-seats`}
            type="number"
            min={1}
            max={500}
            value={seatsPerRow}
            onChange={(e) => setSeatsPerRow(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-first`}>First row label</label>
          <input
            id={`${id}-first`}
            value={firstRow}
            maxLength={3}
            onChange={(e) => setFirstRow(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-numbering`}>Seat numbering</label>
          <select
            id={`${id}-numbering`}
            value={numbering}
            onChange={(e) => setNumbering(e.target.value as Numbering)}
          >
            <option value="left-to-right">Left to right</option>
            <option value="right-to-left">Right to left</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-aisles`}>Aisles after seats</label>
          <input
            id={`${id}-aisles`}
            value={aisles}
            placeholder="4, 12"
            aria-describedby={`${id}-aisles-hint`}
            onChange={(e) => setAisles(e.target.value)}
          />
          <small id={`${id}-aisles-hint`} className="form-hint">
            Seat numbers an aisle follows, separated by commas.
          </small>
        </div>
        <div className="field">
          <label htmlFor={`${id}-curve`}>Curve</label>
          <input
            id={`${id}-curve`}
            type="number"
            min={0}
            max={20}
            step={0.5}
            value={curve}
            aria-describedby={`${id}-curve-hint`}
            onChange={(e) => setCurve(e.target.value)}
          />
          <small id={`${id}-curve-hint`} className="form-hint">
            How far the rows' ends come towards the stage, in seats (0: straight).
          </small>
        </div>
        <div className="field">
          <button type="submit" className="button-secondary">
            Add section
          </button>
        </div>
      </fieldset>
      {refusal && (
        <p className="form-error" role="alert">
          {refusal}
        </p>
      )}
    </form>
  )
}

/**
 * A number typed as text: it may be emptied or half typed ("", "-") on the way to a number, and only
 * a number is passed on; a value changed elsewhere (the stage placed again) replaces what is shown.
 */
function NumberInput(props: { id: string; value: number; min?: number; onValue(value: number): void }) {
  const { id, value, min, onValue } = props
  const [text, setText] = useState(String(value))
  const [shown, setShown] = useState(value)
  if (shown !== value) {
    setShown(value)
    if (text.trim() === '' || Number(text) !== value) setText(String(value))
  }
  return (
    <input
      id={id}
      type="number"
      value={text}
      min={min}
      onChange={(e) => {
        const typed = e.target.value
        setText(typed)
        const number = Number(typed)
        if (typed.trim() !== '' && Number.isFinite(number)) onValue(number)
      }}
    />
  )
}

function StageFields({ draft, onChange }: { draft: Draft; onChange(next: Draft): void }) {
  const id = useId()
  const stage = draft.stage
  const set = (field: 'x' | 'y' | 'w' | 'h', value: number) => {
    if (stage) onChange({ ...draft, stage: { ...stage, [field]: value } })
  }
  const fields = [
    ['x', 'Stage left'],
    ['y', 'Stage top'],
    ['w', 'Stage width'],
    ['h', 'Stage height'],
  ] as const
  return (
    <fieldset>
      <legend>Stage</legend>
      {stage ? (
        <>
          {fields.map(([field, label]) => (
            <div className="field" key={field}>
              <label htmlFor={`${id}-${field}`}>{label}</label>
              <NumberInput
                id={`${id}-${field}`}
                value={stage[field]}
                min={field === 'w' || field === 'h' ? 1 : undefined}
                onValue={(value) => set(field, value)}
              />
            </div>
          ))}
          <div className="field">
            <button
              type="button"
              className="button-secondary"
              onClick={() => onChange({ ...draft, stage: null })}
            >
              Remove stage
            </button>
          </div>
        </>
      ) : (
        <div className="field">
          <button
            type="button"
            className="button-secondary"
            disabled={draft.sections.length === 0}
            onClick={() => onChange({ ...draft, stage: stageAbove(draft) })}
          >
            Place stage above the sections
          </button>
        </div>
      )}
    </fieldset>
  )
}
