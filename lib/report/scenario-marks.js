// The windows of a scenario run's scenarios on every time chart: a solid rule where scenarios
// start and a dashed one where they stop, labelled with their names in the strip above the plot,
// in rows above the event labels the chart already has there, so that no two labels overlap.

import { layoutMarkerLabels, LABEL_LAYOUT } from './marker-labels.js'
import { round3 } from '../format/round.js'

const isNum = (v) => typeof v === 'number' && Number.isFinite(v)
const COLOUR = '#333333'
// the scenario labels' own rows, above the events' (which take up to LABEL_LAYOUT.rows)
const SCENARIO_ROWS = 2

/**
 * One mark per time at which scenarios start or stop: scenarios that start (or stop) together
 * share one rule and one label ("checkout, reports start").
 * @param {any} doc a results document
 * @returns {{ t: number, edge: 'start'|'stop', label: string, tip: string }[]}
 */
export function scenarioMarkRows (doc) {
  const scenarios = doc?.scenarios
  if (!scenarios || typeof scenarios !== 'object') return []
  const byTime = new Map()
  for (const [name, s] of Object.entries(scenarios)) {
    if (!s || !isNum(s.startS) || !isNum(s.endS)) continue
    for (const [edge, t] of [['start', s.startS], ['stop', s.endS]]) {
      const key = `${edge}@${round3(t)}`
      if (!byTime.has(key)) byTime.set(key, { t: round3(t), edge, names: [] })
      byTime.get(key).names.push(name)
    }
  }
  return [...byTime.values()].sort((a, b) => a.t - b.t).map(({ t, edge, names }) => {
    const verb = names.length === 1 ? `${edge}s` : edge
    return { t, edge, label: `${names.join(', ')} ${verb}`, tip: `${names.join(', ')} ${verb} at ${t} s` }
  })
}

/** The subtitle line that says what the scenario marks are. */
export const SCENARIO_MARKS_NOTE = 'black: scenarios start (solid) and stop (dashed)'

/**
 * Add the scenario marks to a filled time chart: rules on every plot whose x axis is the run's
 * time, and the labels above the first such plot. A chart without a time axis is left alone.
 * @param {any} spec a filled Vega-Lite spec (its datasets set)
 * @param {any} doc the results document whose `scenarios` are marked
 * @returns {boolean} whether the chart was marked
 */
export function addScenarioMarks (spec, doc) {
  const rows = scenarioMarkRows(doc)
  if (rows.length === 0) return false
  const plots = timePlots(spec)
  if (plots.length === 0) return false
  const maxT = Math.max(doc.run?.durationS ?? 0, ...rows.map((r) => r.t), ...(doc.intervals ?? []).map((iv) => iv?.t).filter(isNum))
  const widthPx = isNum(plots[0].node.width) ? plots[0].node.width : isNum(spec.width) ? spec.width : LABEL_LAYOUT.chartWidthPx
  const below = rowsTaken(spec.datasets ?? {})
  const { labels } = layoutMarkerLabels(rows.map((r) => ({ t: r.t, label: r.label, kind: 'scenario' })), maxT, { chartWidthPx: widthPx, rows: SCENARIO_ROWS })
  spec.datasets = {
    ...spec.datasets,
    scenarioMarks: rows,
    scenarioLabels: labels.map((l) => ({ ...l, y: l.y - below * LABEL_LAYOUT.rowPx }))
  }
  plots.forEach(({ node, x }, i) => {
    node.layer.push(ruleLayer('start', x), ruleLayer('stop', x))
    if (i === 0 && labels.length > 0) node.layer.push(labelLayer(x))
  })
  const lines = [spec.title?.subtitle ?? []].flat()
  spec.title = { ...(typeof spec.title === 'string' ? { text: spec.title } : spec.title), subtitle: [...lines, SCENARIO_MARKS_NOTE] }
  return true
}

/** How many label rows above the plot the chart's own labels (events, steady state) take. */
function rowsTaken (datasets) {
  const rows = ['markerLabels', 'steadyLabel'].flatMap((k) => (datasets[k] ?? []).map((l) => l.row)).filter(isNum)
  return rows.length ? Math.max(...rows) + 1 : 0
}

/**
 * The layer stacks whose x axis is time in seconds (field `t`), in the spec's order, with that
 * axis's encoding (its title and scale, which a new layer must repeat to share the axis).
 */
function timePlots (node, found = []) {
  if (Array.isArray(node)) {
    node.forEach((n) => timePlots(n, found))
    return found
  }
  if (!node || typeof node !== 'object') return found
  if (Array.isArray(node.layer)) {
    const x = node.layer.map((l) => l.encoding?.x).find((e) => e?.field === 't' && e.type === 'quantitative')
    if (x) found.push({ node, x })
    return found
  }
  for (const [k, v] of Object.entries(node)) if (k !== 'datasets') timePlots(v, found)
  return found
}

const xOf = (x) => ({ field: 't', type: 'quantitative', ...(x.title !== undefined ? { title: x.title } : {}), ...(x.scale ? { scale: x.scale } : {}) })

function ruleLayer (edge, x) {
  return {
    data: { name: 'scenarioMarks' },
    transform: [{ filter: `datum.edge === '${edge}'` }],
    mark: { type: 'rule', color: COLOUR, strokeWidth: 1.4, ...(edge === 'stop' ? { strokeDash: [6, 3] } : {}) },
    encoding: { x: xOf(x), tooltip: [{ field: 'tip', type: 'nominal', title: 'scenarios' }] }
  }
}

function labelLayer (x) {
  return {
    data: { name: 'scenarioLabels' },
    mark: { type: 'text', align: { expr: 'datum.align' }, baseline: 'alphabetic', dx: { expr: "datum.align === 'right' ? -3 : 3" }, fontSize: 10, fontWeight: 'bold', color: COLOUR },
    encoding: { x: xOf(x), y: { field: 'y', type: 'quantitative', scale: null }, text: { field: 'label', type: 'nominal' } }
  }
}
