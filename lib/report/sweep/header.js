// The sweep report's text as HTML: what was swept (workload, axes, repeats, server, host), the
// best cells, every cell's figures, the cells with no finished run, and links to each run's file.

import { existsSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { escapeHtml as h } from '../escape.js'
import { fmt } from '../header.js'
import { AXIS_KEYS, cellName } from './axes.js'
import { drawnCells, sizeBases, sizeMeasure } from './datasets.js'
import { worstP99Ms } from './best-cells.js'
import { bytesText as sizeText } from '../../format/bytes.js'

const isNum = (v) => typeof v === 'number' && Number.isFinite(v)

/** Bytes in binary units, as PostgreSQL prints sizes: 128 MB, 23.5 GB. */
export function bytesText (v) {
  return isNum(v) ? sizeText(v) : '–'
}

/**
 * A table; a cell is text, or `{ html }` already escaped; the first `textColumns` columns hold
 * names (left-aligned), the rest figures.
 * @param {string[]} head @param {(string|{ html: string })[][]} rows @param {string} [cls] @param {number} [textColumns]
 */
function table (head, rows, cls = '', textColumns = 1) {
  const cellHtml = (c) => (typeof c === 'object' && c !== null ? c.html : h(c))
  const td = (c, i) => (i === 0 ? `<th scope="row">${cellHtml(c)}</th>` : `<td${i < textColumns ? ' style="text-align: left"' : ''}>${cellHtml(c)}</td>`)
  const th = head.map((c) => `<th>${h(c)}</th>`).join('')
  const body = rows.map((r) => `<tr>${r.map(td).join('')}</tr>`).join('\n')
  return `<table class="${h(cls)}"><thead><tr>${th}</tr></thead><tbody>\n${body}\n</tbody></table>`
}

function dl (pairs) {
  return '<dl>' + pairs.filter(([, v]) => v !== undefined && v !== null && v !== '')
    .map(([k, v]) => `<dt>${h(k)}</dt><dd>${h(v)}</dd>`).join('') + '</dl>'
}

/** "scale 1, 10 × clients 1, 4, 16 × 3 repeats" */
export function axesText (sweep, shape) {
  const parts = AXIS_KEYS.filter((a) => shape.values[a].length > 0).map((a) => `${a} ${shape.values[a].map((v) => fmt(v)).join(', ')}`)
  const repeat = isNum(sweep.repeat) ? ` × ${sweep.repeat} repeat${sweep.repeat === 1 ? '' : 's'}` : ''
  return parts.join(' × ') + repeat
}

function optionsText (options) {
  if (!options || typeof options !== 'object') return undefined
  const o = options
  const parts = []
  if (isNum(o.durationS)) parts.push(`${fmt(o.durationS)} s per run`)
  if (isNum(o.warmupS)) parts.push(`${fmt(o.warmupS)} s warm-up`)
  if (typeof o.protocol === 'string') parts.push(`${o.protocol} protocol`)
  return parts.join(', ') || undefined
}

function runsText (runs) {
  const counts = new Map()
  for (const r of runs) counts.set(r.status, (counts.get(r.status) ?? 0) + 1)
  return `${runs.length} run${runs.length === 1 ? '' : 's'}: ` + [...counts].map(([s, n]) => `${n} ${s}`).join(', ')
}

/** The facts about the sweep: what, on which server and host, when. */
function factsBlock (sweep, shape, source) {
  const s = sweep.server ?? {}
  const host = sweep.host ?? {}
  return dl([
    ['workload', sweep.workload],
    ['label', sweep.label],
    ['swept', axesText(sweep, shape)],
    ['each run', optionsText(sweep.options)],
    ['command', sweep.command],
    ['server', [s.version ? `PostgreSQL ${s.version}` : '', s.embedded ? '(embedded)' : '', isNum(s.sharedBuffersBytes) ? `shared_buffers ${bytesText(s.sharedBuffersBytes)}` : ''].filter(Boolean).join(' ') || undefined],
    ['host', [host.hostname, isNum(host.cpus) ? `${host.cpus} CPUs` : '', isNum(host.memoryBytes) ? `${bytesText(host.memoryBytes)} memory` : ''].filter(Boolean).join(', ') || undefined],
    ['runs', runsText(sweep.runs)],
    ['started', sweep.createdAt],
    ['last updated', sweep.updatedAt],
    ['sweep document', source],
    ['pgload', sweep.toolVersion]
  ])
}

const tpsText = (c) => `${fmt(c.tps.median, 1)}`
const rangeText = (s, digits) => (isNum(s?.min) && isNum(s?.max) ? `${fmt(s.min, digits)}–${fmt(s.max, digits)}` : '–')

/** @param {{ rows: import('./best-cells.js').BestRow[], limitNote: string }} best */
function bestBlock (best) {
  const grouped = best.rows.some((r) => r.group !== null)
  const rows = best.rows.map((r) => {
    const c = r.cell
    const lead = grouped ? [r.group, r.choice] : [r.choice]
    if (!c) return [...lead, r.note, '', '', '', '']
    return [...lead, cellName(c.cell), tpsText(c), fmt(c.p50Ms?.median), fmt(c.p99Ms?.median), fmt(worstP99Ms(c))]
  })
  const head = [...(grouped ? ['size'] : []), 'choice', 'cell', 'tps (median)', 'p50 ms', 'p99 ms (median)', 'p99 ms (worst repeat)']
  return `<h3>Best cells</h3><p class="note">${h(best.limitNote)}</p>${table(head, rows, 'numbers best', grouped ? 3 : 2)}`
}

// Sizes: the workload's tables (what the ratios divide, as the size chart) and the whole database.
function cellsBlock (sweep, shape) {
  const bases = sizeBases(sweep)
  const measure = sizeMeasure(sweep, shape)
  const ratio = (c, basis) => {
    const b = bases.find((x) => x.basis === basis)
    return b && isNum(c[measure.key]) ? `${fmt(c[measure.key] / b.bytes, 3)}×` : '–'
  }
  const tables = measure.key === 'tablesSizeBytes'
  // a CH-benCHmark sweep's own figures: what the analytic streams cost, and what they did
  const ch = sweep.cells.some((c) => 'tpmC' in c)
  const rows = drawnCells(sweep, shape).map((c) => [
    cellName(c.cell), `${c.runs}${isNum(sweep.repeat) ? ` of ${sweep.repeat}` : ''}`,
    tpsText(c), rangeText(c.tps, 1), fmt(c.p50Ms?.median), fmt(c.p99Ms?.median), rangeText(c.p99Ms, 3), fmt(c.maxMs?.max),
    ...(ch ? [fmt(c.tpmC?.median), fmt(c.newOrderP90Ms?.median), fmt(c.queriesPerHour?.median)] : []),
    ...(tables ? [bytesText(c.tablesSizeBytes)] : []), bytesText(c.dbSizeBytes), ratio(c, 'shared_buffers'), ratio(c, 'memory')
  ])
  const what = tables ? 'tables' : 'database'
  const head = ['cell', 'runs', 'tps (median)', 'tps min–max', 'p50 ms', 'p99 ms', 'p99 min–max', 'max ms (worst)',
    ...(ch ? ['tpmC', 'New-Order p90 ms', 'queries per hour'] : []),
    ...(tables ? ["workload's tables"] : []), 'whole database', `${what} × shared_buffers`, `${what} × memory`]
  return `<h3>Cells</h3>${table(head, rows, 'numbers cells')}`
}

function missingBlock (missing) {
  if (missing.length === 0) return ''
  return `<div class="skipped"><strong>Cells with no finished run (not drawn):</strong><ul>${missing.map((m) => `<li>${h(m.name)}: ${h(m.why)}</li>`).join('')}</ul></div>`
}

/**
 * The runs with links to their files, relative to the HTML file, in the order they ran.
 * @param {any} sweep
 * @param {{ sweepDir?: string, htmlDir?: string }} where
 */
function runsBlock (sweep, where) {
  const link = (file) => {
    if (!file) return '–'
    if (!where.sweepDir || !where.htmlDir) return file
    const path = join(where.sweepDir, file)
    const href = relative(where.htmlDir, path).split(sep).map(encodeURIComponent).join('/')
    const absent = existsSync(path) ? '' : ' <span class="note">(file not found)</span>'
    return { html: `<a href="${h(href)}">${h(file)}</a>${absent}` }
  }
  const runs = [...sweep.runs].sort((a, b) => (a.order ?? Infinity) - (b.order ?? Infinity))
  const rows = runs.map((r) => [
    isNum(r.order) ? String(r.order + 1) : '–', cellName(r.cell), fmt(r.repeat), r.status,
    fmt(r.tps, 1), fmt(r.p50Ms), fmt(r.p99Ms), r.status === 'done' ? link(r.file) : (r.error ?? '')
  ])
  return `<details><summary>Runs and their results files (${runs.length})</summary>${table(['#', 'cell', 'repeat', 'status', 'tps', 'p50 ms', 'p99 ms', 'results file or error'], rows, 'numbers runs', 2)}</details>`
}

/**
 * The header section of a sweep report.
 * @param {any} sweep a checked sweep document
 * @param {import('./axes.js').SweepShape} shape
 * @param {{ best: { rows: any[], limitNote: string }, missing: { name: string, why: string }[], source?: string, sweepDir?: string, htmlDir?: string }} parts
 * @returns {string} HTML
 */
export function sweepHeaderHtml (sweep, shape, parts) {
  return [
    '<section class="sweep">',
    '<h2>Sweep</h2>',
    // the answer first, as a capacity report gives its rate first: then the cells, then what ran
    bestBlock(parts.best),
    missingBlock(parts.missing),
    cellsBlock(sweep, shape),
    '<h3>What ran</h3>',
    factsBlock(sweep, shape, parts.source),
    runsBlock(sweep, parts),
    '</section>'
  ].filter(Boolean).join('\n')
}
