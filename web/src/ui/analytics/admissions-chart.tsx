// The door's admissions per minute (issue 16), as bars on a time axis so quiet minutes show as
// gaps; loaded with the analytics charts, whose chart figure it uses.
import { useMemo } from 'react'
import { Chart, type ChartOption } from './analytics-charts.tsx'

export type MinuteCount = { minute: string; admitted: number }

/** a summary's minute ('YYYY-MM-DDTHH:MM', UTC) as an instant in ms */
const instantOf = (minute: string): number => Date.parse(`${minute}:00Z`)

function admissionsPerMinute(perMinute: MinuteCount[]): ChartOption {
  return {
    aria: { enabled: true },
    grid: { left: 8, right: 8, top: 16, bottom: 8, containLabel: true },
    tooltip: { trigger: 'axis' },
    xAxis: { type: 'time', axisLabel: { hideOverlap: true } },
    yAxis: { type: 'value', minInterval: 1 },
    series: [
      {
        name: 'Admitted',
        type: 'bar',
        data: perMinute
          .map((row): [number, number] => [instantOf(row.minute), row.admitted])
          .filter(([at]) => Number.isFinite(at)),
        itemStyle: { color: '#2e7d5b' },
        barMaxWidth: 18,
      },
    ],
  }
}

export default function AdmissionsChart({ perMinute }: { perMinute: MinuteCount[] }) {
  const option = useMemo(() => admissionsPerMinute(perMinute), [perMinute])
  return <Chart caption="Admissions per Minute" kind="admissions-per-minute" option={option} />
}
