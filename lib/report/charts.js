// The chart catalogue: which spec in reports/ each chart uses, the datasets it is filled with,
// when it is skipped (and why), and the few render-time adjustments (log scale, domains).

import { readFileSync } from 'node:fs'
import {
  intervalSeconds, transactionTypes, throughputRows, latencyRows, streamSetRows, markerSets, serverRows, poolerRows,
  spectrumByType, distributionByType, thresholdRows, tpmcRows, responseTimeRows
} from './datasets.js'
import { layoutMarkerLabels } from './marker-labels.js'
import { rollingMean, effectiveWindowS, TPMC_WINDOW_S } from './rolling-mean.js'
import { round3 } from '../format/round.js'
import { fewEvents } from '../output/enough-data.js'
import { committedNewOrders } from '../output/tpcc-summary.js'
import { stageBands, stageLatencyData, judgedSteadyState, STEADY_NOT_APPLICABLE } from './stage-data.js'
import { spectrumDomain, useLog } from './spec-scales.js'
import { COMPARE_CHART } from './compare-chart.js'
import { WAIT_CHART } from './wait-chart.js'
import { addScenarioMarks } from './scenario-marks.js'
import { scenarioParts, SCENARIO_CHART_IDS } from './scenario-charts.js'

export { COMPARE_CHART }

const SPEC_DIR = new URL('../../reports/', import.meta.url)
const specCache = new Map()

/**
 * The static Vega-Lite spec of a chart (parsed once, returned as a fresh copy).
 * @param {string} id chart id = file name without .vl.json
 * @returns {any}
 */
export function loadSpec (id) {
  if (!specCache.has(id)) specCache.set(id, readFileSync(new URL(`${id}.vl.json`, SPEC_DIR), 'utf8'))
  return JSON.parse(specCache.get(id))
}

/**
 * The time-to-steady-state marker: one row (none where the load varies on purpose).
 * @param {import('../metrics/steady-state.js').SteadyState|null} steady
 */
function steadyStateRows (steady) {
  if (steady?.timeS == null) return []
  const tps = Math.round(steady.medianTps).toLocaleString('en-US')
  return [{ t: steady.timeS, label: `steady from ${steady.timeS} s (±${Math.round(steady.band * 100)} % of ${tps} tps)` }]
}

/** The steady-state band (median ± band) from the time to steady state to the end. */
function steadyBandRows (steady, maxT) {
  if (steady?.timeS == null) return []
  const lo = round3(steady.medianTps * (1 - steady.band))
  const hi = round3(steady.medianTps * (1 + steady.band))
  return [{ t: steady.timeS, t2: Math.max(steady.timeS, maxT), lo, hi, label: `${Math.round(lo)}-${Math.round(hi)} tps` }]
}

/** "shaded: checkpoint" where the chart has a checkpoint span, else nothing. */
const checkpointNote = (d) => (d.checkpoints.length > 0 ? '; shaded: checkpoint' : '')

/** The dashed line of the whole run's tpmC on the TPC-C chart: its name in the legend, its colour. */
const WHOLE_RUN = 'whole-run tpmC'
const WHOLE_RUN_COLOUR = '#e45756'

/**
 * Per-run charts in report order. `applies(doc)`, when given, says whether this kind of run
 * has the chart at all; `data(doc)` returns the named datasets; `skip(data, doc)` returns the
 * reason an applicable chart is left out, or null; `tune(spec, data, opts, doc)` adjusts the copy.
 */
export const RUN_CHARTS = [
  {
    id: 'throughput',
    title: 'Throughput over time',
    data: (doc) => {
      const throughput = throughputRows(doc)
      const { checkpoints, instants, markers } = markerSets(doc)
      const maxT = Math.max(0, ...throughput.map((r) => r.t), ...markers.map((m) => m.t2))
      const steady = judgedSteadyState(doc)
      const steadyState = steadyStateRows(steady)
      // the steady-state label shares the strip above the plot with the events' labels
      const { labels } = layoutMarkerLabels([...steadyState.map((r) => ({ ...r, kind: 'steady' })), ...markers], maxT)
      return {
        throughput,
        // a stage's number stays clear of the dashed event lines that run through it
        stages: stageBands(doc, { avoid: instants.map((m) => m.t), maxT }),
        checkpoints,
        instants,
        markerLabels: labels.filter((l) => l.kind !== 'steady'),
        steadyState,
        steadyLabel: labels.filter((l) => l.kind === 'steady'),
        // The band is in total transactions per second: drawn only where one line is the total.
        steadyBand: new Set(throughput.map((r) => r.type)).size === 1 ? steadyBandRows(steady, maxT) : []
      }
    },
    skip: (d) => (d.throughput.length === 0 ? 'no interval series (intervals) in the results' : null),
    tune: (spec, d, opts, doc) => {
      const lines = [spec.title.subtitle].flat()
      // the marks the chart has, and only those
      const kinds = [...new Set(d.instants.map((m) => m.kind))]
      const drawn = [d.checkpoints.length > 0 && 'shaded: checkpoint', kinds.length > 0 && `dashed: ${kinds.join(' or ')}`,
        d.steadyState.length > 0 && 'green: time to steady state (all types)'].filter(Boolean)
      if (drawn.length > 0) lines.push(drawn.join(', '))
      const hidden = d.checkpoints.length + d.instants.length - d.markerLabels.reduce((n, l) => n + l.count, 0)
      if (hidden > 0) lines.push(`${hidden} more event${hidden === 1 ? '' : 's'} without a label: hover the lines`)
      const steady = judgedSteadyState(doc)
      if (steady === null) lines.push(`time to steady state: ${STEADY_NOT_APPLICABLE}`)
      else if (steady.timeS === null) lines.push(`no steady state: ${steady.reason}`)
      else if (d.steadyLabel.length === 0) lines.push(`steady from ${steady.timeS} s: no room for its label`)
      spec.title.subtitle = lines
    }
  },
  {
    id: 'latency-over-time',
    title: 'Latency over time',
    data: (doc) => ({ latency: latencyRows(doc), stages: stageBands(doc), checkpoints: markerSets(doc).checkpoints, streamSets: streamSetRows(doc) }),
    skip: (d) => (d.latency.length === 0 ? 'no per-interval latency in the results' : null),
    tune: (spec, d, opts, doc) => {
      spec.title.subtitle += checkpointNote(d)
      if (doc?.chbench) {
        const sets = d.streamSets.length > 0 ? '; dotted: an analytic stream completes a set of its queries' : ''
        spec.title.subtitle = [spec.title.subtitle, `TPC-C's transactions only (each query's latency is in the tables)${sets}`]
      }
      if (opts.logScale) useLog(spec.layer.find((l) => l.data.name === 'latency').encoding.y.scale)
    }
  },
  WAIT_CHART,
  {
    id: 'pooler',
    title: 'Through the pooler',
    // only runs through a pooler have it: another run's report does not mention it
    applies: (doc) => Boolean(doc.pooler),
    data: (doc) => ({ latency: latencyRows(doc), ...poolerRows(doc) }),
    skip: (d) => (d.poolerClients.length + d.poolerServers.length === 0 ? 'no reading of the pooler (pooler.series) in the results' : null),
    tune: (spec, d, opts) => {
      if (d.poolerSize.length > 0) spec.title.subtitle = [spec.title.subtitle, 'dashed: the pool size']
      if (opts.logScale) useLog(spec.vconcat[0].layer[0].encoding.y.scale)
    }
  },
  {
    id: 'percentile-spectrum',
    title: 'Latency by percentile',
    data: (doc) => ({ spectrum: spectrumByType(doc), thresholds: thresholdRows(doc) }),
    skip: (d) => (d.spectrum.length === 0 ? 'no merged latency histograms (transactions.*.histogram)' : null),
    tune: (spec, d, opts) => {
      spec.layer[0].encoding.x.scale.domain = spectrumDomain(d.spectrum)
      if (opts.logScale) useLog(spec.layer[0].encoding.y.scale)
      // Empty threshold layers would only make vega warn about an infinite extent.
      if (d.thresholds.length === 0) spec.layer = spec.layer.filter((l) => l.data.name !== 'thresholds')
      else spec.title.subtitle = `${spec.title.subtitle}; dashed: thresholds`
    }
  },
  {
    id: 'stage-latency',
    title: 'Latency against throughput',
    applies: (doc) => (Array.isArray(doc.stages) && doc.stages.length > 0) || Array.isArray(doc.capacity?.steps),
    data: (doc) => {
      const d = stageLatencyData(doc)
      return { stagePoints: d.points, stageLimits: d.limits, stageAnswer: d.answer }
    },
    skip: (d) => (d.stagePoints.length === 0 ? 'no stage with transactions' : null),
    tune: (spec, d, opts, doc) => {
      if (opts.logScale) useLog(spec.layer.find((l) => l.data.name === 'stagePoints' && l.mark.type === 'line').encoding.y.scale)
      if (!doc.capacity?.steps) return
      spec.title.text = 'Latency against offered rate'
      // two lines: one would set the chart's width to its own
      spec.title.subtitle = ['one point per capacity step: p50 and p99 of its measured part against the rate offered',
        'labels: step number' + (d.stageLimits.length ? '; dashed red: the --until limit' : '') + (d.stageAnswer.length ? '; dotted green: the capacity found' : '')]
      spec.layer.find((l) => l.data.name === 'stagePoints' && l.mark.type === 'line').encoding.x.title = 'offered rate (arrivals per second)'
    }
  },
  {
    id: 'latency-distribution',
    title: 'Latency distribution',
    data: (doc) => ({ distribution: distributionByType(doc) }),
    skip: (d) => (d.distribution.length === 0 ? 'no merged latency histograms (transactions.*.histogram)' : null)
  },
  {
    id: 'server-activity',
    title: 'Server activity',
    data: (doc) => ({ server: serverRows(doc), stages: stageBands(doc), checkpoints: markerSets(doc).checkpoints }),
    skip: (d) => (d.server.length === 0 ? 'no server statistics series (serverStats.series)' : null),
    tune: (spec, d) => {
      spec.title.subtitle += checkpointNote(d)
      const panels = new Set(d.server.map((r) => r.panel))
      spec.vconcat = spec.vconcat.filter((v) => panels.has(v.name))
      for (const panel of spec.vconcat) tuneServerPanel(panel, d.server.filter((r) => r.panel === panel.name))
      const disk = d.server.find((r) => r.panel === 'hostDisk' && r.disk)?.disk
      // the disk's name goes in the legend's title: on the axis it made the title longer than the panel
      if (disk) spec.vconcat.find((v) => v.name === 'hostDisk').layer.find((l) => l.data?.name === 'server').encoding.color.title = `host disk ${disk}`
      if (spec.vconcat.some((v) => v.layer.some((l) => l.mark.point))) spec.title.subtitle += '; one sample so far, drawn as points: waiting for a second sample'
    }
  },
  {
    id: 'tpcc',
    title: 'TPC-C',
    data: (doc) => {
      const tpmc = tpmcRows(doc)
      const summary = []
      const dur = doc.run?.durationS
      const noType = transactionTypes(doc).find((t) => /^new[-_ ]?order$/i.test(t))
      const tpmC = doc.tpcc?.tpmC ?? (noType && dur > 0 ? round3((doc.transactions[noType].count ?? 0) * 60 / dur) : null)
      if (typeof tpmC === 'number') {
        // an unpaced run's efficiency compares with a paced maximum: not shown
        const eff = doc.tpcc && doc.tpcc.paced !== false ? doc.tpcc.efficiency : null
        const few = doc.tpcc ? fewEvents(committedNewOrders(doc), 'New-Orders', 'these') : null
        const ceiling = doc.tpcc?.efficiencyCeiling
        // unpaced runs have no ceiling (null): no comparison with it
        const over = typeof eff === 'number' && typeof ceiling === 'number' && eff > ceiling ? `above the ${doc.tpcc.efficiencyCeiling.toFixed(1)} % these waits allow on average, by chance` : null
        // a line each: one long line would reach past the plot's left edge into the axis
        const label = [`whole run: tpmC ${tpmC.toLocaleString('en-US')}` + (typeof eff === 'number' ? ` · efficiency ${eff.toFixed(1)} %` : ''), over, few].filter(Boolean)
        summary.push({ tpmC, series: WHOLE_RUN, label })
      }
      // The faint per-interval line first (drawn behind), then the rolling mean over it.
      const dt = intervalSeconds(doc)
      const windowS = effectiveWindowS(tpmc, TPMC_WINDOW_S, dt)
      const tpmcLines = [
        ...tpmc.map((r) => ({ t: r.t, tpmC: r.tpmC, series: `per ${dt} s interval` })),
        ...rollingMean(tpmc, 'tpmC', windowS).map((r) => ({ t: r.t, tpmC: r.value, series: `${windowS} s rolling mean` }))
      ]
      return { tpmcLines, stages: stageBands(doc), tpccSummary: summary, responseTime: responseTimeRows(doc) }
    },
    tune: (spec, d) => {
      // The legend and subtitle state the window and the interval the lines stand for.
      const names = [...new Set(d.tpmcLines.map((r) => r.series))]
      const { encoding } = spec.vconcat[0].layer.find((l) => l.data.name === 'tpmcLines')
      // the dashed whole-run line has its legend entry beside the two lines
      const whole = d.tpccSummary.length > 0 ? [WHOLE_RUN] : []
      encoding.color.scale.domain = [...names, ...whole]
      encoding.color.scale.range = [...encoding.color.scale.range.slice(0, names.length), ...whole.map(() => WHOLE_RUN_COLOUR)]
      encoding.strokeWidth.scale.domain = names
      const dashed = whole.length ? `; dashed: ${WHOLE_RUN}` : ''
      spec.title.subtitle[0] = names[1] ? `tpmC: centred ${names[1]} (bold) over the tpmC ${names[0]} (faint)${dashed}` : `tpmC per interval${dashed}`
      // the legend of the response times names only the verdicts there are
      const status = spec.vconcat[1].layer.find((l) => l.encoding.color?.field === 'status').encoding.color.scale
      const present = status.domain.map((v, i) => [v, status.range[i]]).filter(([v]) => d.responseTime.some((r) => r.status === v))
      status.domain = present.map(([v]) => v)
      status.range = present.map(([, c]) => c)
    },
    // Only TPC-C runs have these charts: another workload's report does not mention them.
    applies: (doc) => doc.run.workload === 'tpcc' || Boolean(doc.tpcc),
    skip: (d) => {
      return d.tpmcLines.length === 0 && d.responseTime.length === 0 ? 'no New-Order counts or response times in the results' : null
    }
  }
]

/**
 * A server panel as its samples allow: one sample is no line, so it is drawn as points until a
 * second comes; a legend of a fixed colour domain (one colour per state whenever it appears)
 * names only the series there are.
 * @param {any} panel @param {{ t: number, series: string }[]} rows the panel's rows
 */
function tuneServerPanel (panel, rows) {
  const layer = panel.layer.find((l) => l.data?.name === 'server')
  if (new Set(rows.map((r) => r.t)).size === 1) {
    layer.mark = { ...layer.mark, point: true }
    // the point overlay is a layer of its own; a domain that reads the data would then be read
    // twice, which Vega-Lite warns of: the one sample's own extent instead
    const y = layer.encoding.y
    if (y?.scale?.domain?.unionWith) {
      const values = rows.map((r) => r.value).filter((v) => typeof v === 'number')
      const top = y.stack ? values.reduce((a, v) => a + v, 0) : Math.max(0, ...values)
      y.scale = { ...y.scale, domain: [...y.scale.domain.unionWith, top].reduce((d, v) => [Math.min(d[0], v), Math.max(d[1], v)], [0, 0]) }
    }
  }
  const color = layer.encoding.color
  if (Array.isArray(color?.scale?.domain)) {
    const present = new Set(rows.map((r) => r.series))
    color.legend = { ...color.legend, values: color.scale.domain.filter((s) => present.has(s)) }
  }
}

/**
 * Fill a chart's static spec: datasets go to the top-level `datasets`, the title gets the run
 * label when several runs are reported, then the chart's own adjustments.
 * @param {{ id: string, tune?: Function }} chart
 * @param {Record<string, any[]>} datasets
 * @param {{ logScale?: boolean, runLabel?: string }} [opts]
 * @param {any} [doc] the results document of a per-run chart
 * @returns {any} a Vega-Lite spec ready to compile
 */
export function fillSpec (chart, datasets, opts = {}, doc) {
  const spec = loadSpec(chart.id)
  spec.datasets = datasets
  if (opts.runLabel) {
    const title = typeof spec.title === 'string' ? { text: spec.title } : spec.title
    spec.title = { ...title, text: `${opts.runLabel}: ${title.text}` }
  }
  chart.tune?.(spec, datasets, opts, doc)
  if (doc) sortTypeColours(spec, transactionTypes(doc))
  if (datasets.stages?.length > 0 && spec.title?.subtitle) {
    const lines = [spec.title.subtitle].flat()
    lines[0] += '; numbered bands: the stages'
    spec.title.subtitle = lines.length === 1 ? lines[0] : lines
  }
  if (doc?.scenarios) addScenarioMarks(spec, doc)
  dropEmptyLayers(spec, datasets)
  return spec
}

/**
 * Order every legend of transaction types as the run lists them (a workload's types in its own
 * order, then the rest) rather than by string, where q10 would come before q2.
 * @param {any} node
 * @param {string[]} types
 */
function sortTypeColours (node, types) {
  if (Array.isArray(node)) return node.forEach((n) => sortTypeColours(n, types))
  if (!node || typeof node !== 'object') return
  const color = node.encoding?.color
  if (color?.field === 'type' && color.sort === undefined && !Array.isArray(color.scale?.domain)) color.sort = types
  for (const [k, v] of Object.entries(node)) if (k !== 'datasets' && k !== 'encoding') sortTypeColours(v, types)
}

/**
 * Remove layers that read an empty dataset (no markers, no thresholds): vega would only warn
 * about an infinite extent for them. A layer stack keeps at least one layer.
 * @param {any} node
 * @param {Record<string, any[]>} datasets
 */
function dropEmptyLayers (node, datasets) {
  if (Array.isArray(node)) return node.forEach((n) => dropEmptyLayers(n, datasets))
  if (!node || typeof node !== 'object') return
  if (Array.isArray(node.layer)) {
    const kept = node.layer.filter((l) => !(l.data?.name && datasets[l.data.name]?.length === 0))
    if (kept.length > 0) node.layer = kept
  }
  for (const [k, v] of Object.entries(node)) if (k !== 'datasets') dropEmptyLayers(v, datasets)
}

/**
 * Every chart for a list of runs: filled specs plus the charts skipped with their reasons.
 * One run gives charts 1-6. Several give, per group of runs that share axes (same workload and
 * transaction types), the overlay of the group when it has more than one run, then each run's
 * charts; runs of different workloads are never drawn on one axis.
 * @param {{ runs: { doc: any, label: string, slug: string, group?: number }[], groups?: { workload: string, indexes: number[] }[] }} labelled from labelRuns
 * @param {{ logScale?: boolean }} [opts]
 * @returns {{ charts: { id: string, name: string, title: string, run: string|null, section: string|null, spec: any }[], skipped: { id: string, title: string, run: string|null, reason: string }[] }}
 */
export function buildCharts ({ runs, groups = [{ workload: null, indexes: runs.map((_, i) => i) }] }, opts = {}) {
  const charts = []
  const skipped = []
  const several = runs.length > 1
  const workloads = groups.map((g) => g.workload)
  groups.forEach((group, k) => {
    const members = group.indexes.map((i) => runs[i])
    if (members.length > 1) {
      const named = groups.length > 1 ? `${COMPARE_CHART.title}: ${group.workload}` : COMPARE_CHART.title
      const twice = workloads.indexOf(group.workload) !== workloads.lastIndexOf(group.workload)
      const name = groups.length > 1 ? `compare-${group.workload}${twice ? `-${k + 1}` : ''}` : 'compare'
      const { notDrawn, ...d } = COMPARE_CHART.data(members)
      const reason = COMPARE_CHART.skip(d)
      if (reason) skipped.push({ id: 'compare', title: named, run: null, reason })
      else {
        const spec = fillSpec(COMPARE_CHART, d, opts)
        const subtitle = notDrawn.length > 0 ? [spec.title.subtitle, `not drawn, too short for a line: ${notDrawn.join(', ')}`] : spec.title.subtitle
        spec.title = { ...spec.title, text: named, subtitle }
        charts.push({ id: 'compare', name, title: named, run: null, section: groups.length > 1 ? `${group.workload} runs compared` : 'All runs', spec })
      }
    }
    for (const { doc, label, slug } of members) runCharts(doc, several ? label : null, slug, opts, charts, skipped)
  })
  return { charts, skipped }
}

/**
 * Charts 1-6 of one run, appended to `charts` and `skipped`; then, for a scenario run, each
 * scenario's section (lib/report/scenario-charts.js) with its own charts.
 * @param {import('./scenario-charts.js').ScenarioPart|null} [part] the scenario drawn, if one is
 */
function runCharts (doc, run, slug, opts, charts, skipped, part = null) {
  const label = part ? [run, part.section].filter(Boolean).join(' · ') : run
  for (const chart of RUN_CHARTS) {
    if (part && !SCENARIO_CHART_IDS.includes(chart.id)) continue
    if (chart.applies && !chart.applies(doc)) continue
    const d = chart.data(doc)
    const reason = chart.skip(d, doc)
    if (reason) {
      skipped.push({ id: chart.id, title: part ? `${part.section}: ${chart.title}` : chart.title, run, reason })
      continue
    }
    const name = [run ? slug : null, part?.slug, chart.id].filter(Boolean).join('-')
    const spec = fillSpec(chart, d, { ...opts, runLabel: label ?? undefined }, doc)
    charts.push({ id: chart.id, name, title: chart.title, run, section: part?.section ?? null, ...(part ? { sectionHtml: part.html } : {}), spec })
  }
  if (!part) for (const p of scenarioParts(doc)) runCharts(p.doc, run, slug, opts, charts, skipped, p)
}
