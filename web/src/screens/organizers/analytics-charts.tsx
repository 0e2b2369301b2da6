// The analytics charts, loaded only by the screens that show them: revenue by ticket type (bars)
// and sales over time (lines, per hour). Only the parts of ECharts these two charts need are
// bundled. Each figure carries, in data-series, the data its chart instance actually holds, so
// what is drawn on the canvas can be checked.
//
// The chart instance is made here, synchronously, and lives exactly as long as the mounted box:
// echarts-for-react made a throwaway instance, waited for its first 'finished' frame and only then
// made the real one, so for a while after each (re)mount the box held an instance with no option;
// a live update in that window read its missing option ("Cannot read properties of undefined
// (reading 'series')") and took the whole dashboard down mid-sale.
import type { EChartsType } from 'echarts'
import { BarChart, type BarSeriesOption, LineChart, type LineSeriesOption } from 'echarts/charts'
import {
  AriaComponent,
  type AriaComponentOption,
  GridComponent,
  type GridComponentOption,
  LegendComponent,
  type LegendComponentOption,
  TooltipComponent,
  type TooltipComponentOption,
} from 'echarts/components'
import type { ComposeOption } from 'echarts/core'
import * as echarts from 'echarts/core'
import { CanvasRenderer } from 'echarts/renderers'
import { useId, useLayoutEffect, useMemo, useRef } from 'react'
import type { AnalyticsReply } from '../../../../contracts/analytics.ts'
import { formatRupees } from '../../ui/rupees.ts'

echarts.use([
  BarChart,
  LineChart,
  GridComponent,
  TooltipComponent,
  LegendComponent,
  AriaComponent,
  CanvasRenderer,
])

type ChartOption = ComposeOption<
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

/** the series data the chart instance holds now (none before its first option) */
const seriesOf = (instance: EChartsType): string => {
  const held = instance.getOption() as { series?: { data?: unknown }[] } | undefined
  return JSON.stringify((held?.series ?? []).map((one) => one.data ?? []))
}

const HEIGHT = 260

/** gives the instance an option and records on the figure the data it now holds */
function show(instance: EChartsType, option: ChartOption, figure: HTMLElement | null) {
  instance.setOption(option, { notMerge: true })
  if (figure) figure.dataset.series = seriesOf(instance)
}

function Chart({ caption, kind, option }: { caption: string; kind: string; option: ChartOption }) {
  const captionId = useId()
  const figure = useRef<HTMLElement>(null)
  const box = useRef<HTMLDivElement>(null)
  const chart = useRef<EChartsType | null>(null)
  const latest = useRef(option)
  latest.current = option
  const given = useRef<ChartOption | null>(null)

  // One instance per mounted box, given the current option at once: there is never an instance
  // without an option, nor an option given to an instance that is gone.
  useLayoutEffect(() => {
    const element = box.current
    if (!element) return
    const instance = echarts.init(element, undefined, { height: HEIGHT })
    show(instance, latest.current, figure.current)
    given.current = latest.current
    chart.current = instance
    const resized = new ResizeObserver(() => {
      if (!instance.isDisposed()) instance.resize()
    })
    resized.observe(element)
    return () => {
      resized.disconnect()
      chart.current = null
      given.current = null
      instance.dispose()
    }
  }, [])

  useLayoutEffect(() => {
    const instance = chart.current
    if (!instance || instance.isDisposed() || given.current === option) return
    show(instance, option, figure.current)
    given.current = option
  }, [option])

  return (
    <figure ref={figure} className="analytics-chart" aria-labelledby={captionId} data-chart={kind}>
      <figcaption id={captionId}>{caption}</figcaption>
      <div ref={box} className="analytics-chart-canvas" style={{ height: HEIGHT, width: '100%' }} />
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
