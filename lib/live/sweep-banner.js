// The top of a sweep's live page: where the sweep is (run and cell of how many, the cell's
// values, its repeat, the time left) and the table of the cells done so far, each figure the
// median of the cell's done runs as the sweep document keeps them (lib/sweep/cells.js).

import { escapeHtml as h } from '../report/escape.js'
import { formatDuration } from '../sweep/estimate.js'

/**
 * @param {Record<string, any>} doc the sweep document, as the runner keeps it up to date
 * @param {{ phase: string, position?: number, total?: number, repeat?: number, cell?: Record<string, number|null>,
 *   text?: string, leftS?: number|null, startedAt?: number, axis?: string, size?: number }} at
 *   where the sweep is: starting, load (axis, size), run (the run's place and cell), between, finished
 * @param {number} [nowMs] for the time left, which counts down from the run's start
 * @returns {string} HTML
 */
export function sweepBannerHtml (doc, at, nowMs = Date.now()) {
  const keys = cellKeys(doc)
  const done = doc.runs.filter((r) => r.status === 'done').length
  const rows = [['Sweep', `${doc.label ? `${doc.label}: ` : ''}${doc.workload}, ${keys.length} cell${keys.length === 1 ? '' : 's'} × ${doc.repeat} run${doc.repeat === 1 ? '' : 's'}; ${done} of ${doc.runs.length} run${doc.runs.length === 1 ? '' : 's'} done`]]
  if (at.phase === 'run') {
    const key = JSON.stringify(at.cell)
    rows.push(['Now', `run ${at.position} of ${at.total}: cell ${keys.indexOf(key) + 1} of ${keys.length}${at.text ? ` (${at.text})` : ''}, run ${at.repeat} of ${doc.repeat} of the cell`])
    if (typeof at.leftS === 'number') {
      const left = Math.max(0, at.leftS - (nowMs - (at.startedAt ?? nowMs)) / 1000)
      rows.push(['Time left', `about ${formatDuration(left)}`])
    }
  } else if (at.phase === 'load') {
    rows.push(['Now', `loading ${at.axis} ${at.size}`])
  } else if (at.phase === 'between') {
    rows.push(['Now', 'between runs (a CHECKPOINT, the next run\'s set-up)'])
  } else {
    rows.push(['Now', at.phase])
  }
  return `<section class="sweep-live"><dl class="live">${rows.map(([k, v]) => `<dt>${h(k)}</dt><dd>${h(v)}</dd>`).join('')}</dl>${cellsDoneHtml(doc)}</section>`
}

/** The cells of the grid, as JSON keys, in the grid's order (the document's cells are in it). */
function cellKeys (doc) {
  const keys = [...new Set(doc.runs.map((r) => JSON.stringify(r.cell)))]
  const cells = keys.map((k) => JSON.parse(k))
  const order = cells.map((c, i) => i).sort((a, b) => compare(cells[a], cells[b]))
  return order.map((i) => keys[i])
}

function compare (a, b) {
  for (const k of Object.keys(a)) {
    const x = a[k] ?? -Infinity
    const y = b[k] ?? -Infinity
    if (x !== y) return x < y ? -1 : 1
  }
  return 0
}

const FIGURES = [['tps', 'tps', 1], ['p50 ms', 'p50Ms', 2], ['p99 ms', 'p99Ms', 2], ['max ms', 'maxMs', 2]]

/**
 * The cells done so far: their values, runs done of planned, and median [min..max] per figure.
 * @param {Record<string, any>} doc
 * @returns {string} HTML
 */
export function cellsDoneHtml (doc) {
  const axes = Object.keys(doc.axes).filter((k) => doc.axes[k] !== null && doc.axes[k] !== undefined)
  const cells = doc.cells ?? []
  if (cells.length === 0) return '<p class="sweep-cells-done">No cell has a finished run yet.</p>'
  const planned = new Map()
  for (const r of doc.runs) planned.set(JSON.stringify(r.cell), (planned.get(JSON.stringify(r.cell)) ?? 0) + 1)
  const head = [...axes, 'runs', ...FIGURES.map(([t]) => t)].map((t) => `<th>${h(t)}</th>`).join('')
  const body = cells.map((c) => {
    const tds = [
      ...axes.map((a) => String(c.cell[a])),
      `${c.runs}/${planned.get(JSON.stringify(c.cell)) ?? c.runs}`,
      ...FIGURES.map(([, key, digits]) => spreadText(c[key], digits))
    ]
    return `<tr>${tds.map((v) => `<td>${h(v)}</td>`).join('')}</tr>`
  }).join('')
  return `<table class="sweep-cells-done"><caption>Cells done so far (median of the cell's runs [min..max])</caption><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`
}

function spreadText (s, digits) {
  if (!s || typeof s.median !== 'number') return '-'
  const f = (v) => v.toFixed(digits)
  return s.min === s.max ? f(s.median) : `${f(s.median)} [${f(s.min)}..${f(s.max)}]`
}
