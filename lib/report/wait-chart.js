// The chart of the wait classes over time (the results' `waits.series`): the run's backends by
// wait class per interval, stacked as average active sessions, on the time axis of the latency
// chart, with its checkpoint spans and the autovacuum markers. A fixed colour per class.

import { latencyRows, markerSets } from './datasets.js'
import { stageBands } from './stage-data.js'
import { orderWaitClasses } from '../results/wait-classes.js'

/** A colour per class, as DBAs know them from active session history: CPU green, IO blue, Lock red... */
export const WAIT_CLASS_COLOURS = {
  CPU: '#2ca02c',
  IO: '#1f77b4',
  Lock: '#d62728',
  LWLock: '#e377c2',
  IPC: '#9467bd',
  Client: '#8c564b',
  Timeout: '#bcbd22',
  BufferPin: '#ff7f0e',
  Activity: '#7f7f7f',
  Extension: '#17becf',
  InjectionPoint: '#393b79',
  'idle in transaction': '#c7c7c7'
}
/** A class a newer server adds. */
const OTHER_COLOUR = '#aec7e8'

export const WAIT_CHART_TITLE = 'Where the time went (average active sessions by wait class)'

/**
 * The stacked rows: per interval with reads, one row per class the run has (0 where an interval
 * has none of it, so that the areas stack), in the classes' stable order.
 * @param {any} doc
 * @returns {{ t: number, class: string, sessions: number, order: number }[]}
 */
export function waitClassRows (doc) {
  const series = Array.isArray(doc.waits?.series) ? doc.waits.series.filter((e) => e && e.ticks > 0) : []
  const classes = orderWaitClasses(series.flatMap((e) => Object.keys(e.sessions ?? {})))
  return series.flatMap((e) => classes.map((cls, order) => ({ t: e.t, class: cls, sessions: e.sessions?.[cls] ?? 0, order })))
}

/**
 * The time axis' end as the latency chart's data sets it: the same domain, so that the two
 * charts' times line up one above the other.
 * @param {any} doc
 * @param {{ t: number }[]} rows
 */
function axisEndS (doc, rows) {
  const { checkpoints } = markerSets(doc)
  const ends = [...latencyRows(doc).map((r) => r.t), ...checkpoints.map((c) => c.t2), ...stageBands(doc).map((s) => s.t2)]
  return Math.max(0, ...(ends.length > 0 ? ends : rows.map((r) => r.t)))
}

/** The chart's entry in the report's catalogue (lib/report/charts.js). */
export const WAIT_CHART = {
  id: 'waits-over-time',
  title: WAIT_CHART_TITLE,
  // runs without the sampler (--wait-sampling off, older files) do not mention it
  applies: (doc) => Boolean(doc.waits),
  data: (doc) => {
    const { checkpoints, instants } = markerSets(doc)
    return { waitClasses: waitClassRows(doc), stages: stageBands(doc), checkpoints, instants }
  },
  skip: (d, doc) => {
    if (doc.waits.available === false) return `wait events not sampled: ${doc.waits.reason}`
    return d.waitClasses.length === 0 ? 'no wait classes over time (waits.series) in the results' : null
  },
  tune: (spec, d, opts, doc) => {
    const classes = orderWaitClasses(d.waitClasses.map((r) => r.class))
    const layer = spec.layer.find((l) => l.data.name === 'waitClasses')
    layer.encoding.color.scale = { domain: classes, range: classes.map((c) => WAIT_CLASS_COLOURS[c] ?? OTHER_COLOUR) }
    layer.encoding.color.legend = { values: classes }
    const endS = axisEndS(doc, d.waitClasses)
    for (const l of spec.layer) if (l.encoding.x.scale) l.encoding.x.scale.domain = [0, endS]
    const kinds = [...new Set(d.instants.map((m) => m.kind))]
    const marks = [d.checkpoints.length > 0 && 'shaded: checkpoint', kinds.length > 0 && `dashed: ${kinds.join(' or ')}`].filter(Boolean)
    if (marks.length > 0) spec.title.subtitle += `; ${marks.join(', ')}`
  }
}
