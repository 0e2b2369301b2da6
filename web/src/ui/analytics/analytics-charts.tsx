// The analytics charts, loaded only by the screens that show them: revenue by ticket type (bars)
// and sales over time (lines, per hour). Only the parts of ECharts these two charts need are
// bundled. Each figure carries, in data-series, the data its chart instance actually holds, so
// what is drawn on the canvas can be checked.
//
// echarts-for-react makes a new instance each time its component mounts, and React mounts it again
// whenever it re-shows hidden content (<Activity>, a Suspense boundary): until that instance's first
// frame it holds no option. A live update in that window must not read its option as if it had one
// (it took the dashboards down mid-sale: "Cannot read properties of undefined (reading 'series')");
// the figure keeps what it last recorded until the library reports the chart ready again.
import type { EChartsType } from 'echarts'
import { BarChart, type BarSeriesOption, LineChart, type LineSeriesOption } from 'echarts/charts'
import {
  AriaComponent,
  type AriaComponentOption,
  GridComponent,
  type GridComponentOption,
  type LegendComponentOption,
  LegendPlainComponent,
  TooltipComponent,
  type TooltipComponentOption,
} from 'echarts/components'
import type { ComposeOption } from 'echarts/core'
import { dispose, getInstanceByDom, init, use } from 'echarts/core'
import { CanvasRenderer } from 'echarts/renderers'
import ReactEChartsCore from 'echarts-for-react/esm/core'
import { useEffect, useId, useMemo, useRef } from 'react'
import type { AnalyticsReply } from '../../../../contracts/analytics.ts'
import { formatRupees } from '../rupees.ts'

use([
  BarChart,
  LineChart,
  GridComponent,
  TooltipComponent,
  LegendPlainComponent,
  AriaComponent,
  CanvasRenderer,
])

/** what echarts-for-react calls: the namespace itself would keep every export of echarts/core */
const drawing = { init, getInstanceByDom, dispose }

export type ChartOption = ComposeOption<
  | BarSeriesOption
  | LineSeriesOption
  | GridComponentOption
  | TooltipComponentOption
  | LegendComponentOption
  | AriaComponentOption
>

type Props = Pick<AnalyticsReply, 'analytics' | 'timeline'>

const money = (value: unknown) => (typeof value === 'number' ? formatRupees(value) : String(value))

function revenueByTicketType(analytics: Props['analytics']): ChartOption {
  return {
    aria: { enabled: true },
    grid: { left: 8, right: 8, top: 16, bottom: 8, containLabel: true },
    tooltip: { trigger: 'axis', valueFormatter: money },
    xAxis: {
      type: 'category',
      data: analytics.map((row) => row.ticketType),
      // every type named, long names wrapped rather than dropped
      axisLabel: { interval: 0, width: 90, overflow: 'break', lineHeight: 14, margin: 10 },
    },
    yAxis: { type: 'value', axisLabel: { formatter: (value: number) => formatRupees(value) } },
    series: [
      {
        name: 'Revenue',
        type: 'bar',
        data: analytics.map((row) => row.totalRevenue),
        itemStyle: { color: '#2e7d5b' },
        barMaxWidth: 56,
      },
    ],
  }
}

function salesOverTime(timeline: Props['timeline']): ChartOption {
  return {
    aria: { enabled: true },
    grid: { left: 8, right: 8, top: 40, bottom: 8, containLabel: true },
    legend: { top: 0 },
    tooltip: { trigger: 'axis' },
    xAxis: { type: 'time', axisLabel: { hideOverlap: true } },
    yAxis: [
      { type: 'value', name: 'Tickets', minInterval: 1 },
      { type: 'value', name: 'Revenue', axisLabel: { formatter: (value: number) => formatRupees(value) } },
    ],
    series: [
      {
        name: 'Tickets',
        type: 'line',
        data: timeline.map((point) => [point.at, point.tickets]),
        itemStyle: { color: '#1f2a44' },
      },
      {
        name: 'Revenue',
        type: 'line',
        yAxisIndex: 1,
        data: timeline.map((point) => [point.at, point.revenue]),
        itemStyle: { color: '#2e7d5b' },
        tooltip: { valueFormatter: money },
      },
    ],
  }
}

/** the series data the chart instance holds now, or undefined while it has no option yet */
const seriesOf = (instance: EChartsType): string | undefined => {
  const held = instance.getOption() as { series?: { data?: unknown }[] } | undefined
  return held && JSON.stringify((held.series ?? []).map((one) => one.data ?? []))
}

/** one chart in its figure (the check-in's admissions chart uses it too) */
export function Chart({ caption, kind, option }: { caption: string; kind: string; option: ChartOption }) {
  const captionId = useId()
  const figure = useRef<HTMLElement>(null)
  const chart = useRef<ReactEChartsCore>(null)
  const ready = useRef(false)

  const record = (instance: EChartsType | undefined) => {
    const series = instance && seriesOf(instance)
    if (series && figure.current) figure.current.dataset.series = series
  }

  // The child sets a new option in its own update, which runs before this effect.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs after each new option
  useEffect(() => {
    if (ready.current) record(chart.current?.getEchartsInstance())
  }, [option])

  return (
    <figure ref={figure} className="analytics-chart" aria-labelledby={captionId} data-chart={kind}>
      <figcaption id={captionId}>{caption}</figcaption>
      <ReactEChartsCore
        ref={chart}
        echarts={drawing}
        option={option}
        notMerge
        style={{ height: 260, width: '100%' }}
        onChartReady={(instance) => {
          ready.current = true
          record(instance)
        }}
      />
    </figure>
  )
}

export default function AnalyticsCharts({ analytics, timeline }: Props) {
  const revenue = useMemo(() => revenueByTicketType(analytics), [analytics])
  const sales = useMemo(() => salesOverTime(timeline), [timeline])
  return (
    <div className="analytics-charts">
      <Chart caption="Revenue by Ticket Type" kind="revenue-by-ticket-type" option={revenue} />
      {timeline.length > 0 && <Chart caption="Sales over Time" kind="sales-over-time" option={sales} />}
    </div>
  )
}
