// Text labels of server events (autovacuum, checkpoints) and of the time to steady state on a
// time chart, laid out in a strip above the plot, where they cover neither the data nor the
// stage numbers: repeats of one event close together become one "×n" label, the rest are
// stacked in a few rows, and what still does not fit is left to the marks' tooltips.

/** Layout constants of the label rows (pixels, at the specs' 10 px label font). */
export const LABEL_LAYOUT = {
  chartWidthPx: 640, // plot width of the time charts (reports/*.vl.json)
  charPx: 6.2, // an upper bound of one character's width at 10 px (vega estimates without a canvas)
  gapPx: 8, // free space between two labels of a row
  rowPx: 12, // distance between rows
  topPx: 3, // the lowest row's baseline above the plot
  rows: 3 // at most this many rows of labels
}

/**
 * The x domain vega draws is "nice": it may end up to a tick step past the data. A label's
 * place is known only between the two ends, and it is kept clear of others at both.
 */
const NICE_SLACK = 1.25

/**
 * @typedef {{ t: number, label: string, kind?: string }} Marker kind 'steady' (the time to
 *   steady state) is placed first, then checkpoints, then the rest
 * @typedef {{ t: number, label: string, kind?: string, count: number, row: number, y: number, align: 'left'|'right' }} MarkerLabel
 *   y: pixels from the top of the plot (negative: above it), for the label's baseline
 */

const RANK = { steady: 0, checkpoint: 1 }
const rank = (m) => RANK[m.kind] ?? 2

/**
 * Lay out marker labels over a time axis from 0 to `maxT` seconds.
 * @param {Marker[]} markers sorted or not
 * @param {number} maxT the largest time on the axis
 * @param {Partial<typeof LABEL_LAYOUT>} [layout]
 * @returns {{ labels: MarkerLabel[], unlabelled: number }} unlabelled: events with no text
 */
export function layoutMarkerLabels (markers, maxT, layout = {}) {
  const L = { ...LABEL_LAYOUT, ...layout }
  const pxPerS = L.chartWidthPx / Math.max(maxT, 1e-9)
  const widthPx = (text) => text.length * L.charPx
  const byRank = (a, b) => rank(a) - rank(b) || a.t - b.t
  const clusters = mergeRepeats([...markers].sort((a, b) => a.t - b.t), pxPerS / NICE_SLACK, widthPx).sort(byRank)
  const rows = []
  const labels = []
  let unlabelled = 0
  for (const c of clusters) {
    const text = c.count > 1 ? `${c.label} ×${c.count}` : c.label
    const span = extent(c.t * pxPerS / NICE_SLACK, c.t * pxPerS, widthPx(text), L.chartWidthPx)
    const free = (taken) => span !== null && taken.every(([a, b]) => span.to + L.gapPx <= a || span.from >= b + L.gapPx)
    let row = rows.findIndex(free)
    if (row === -1 && span !== null && rows.length < L.rows) row = rows.push([]) - 1
    if (row === -1) {
      unlabelled += c.count
      continue
    }
    rows[row].push([span.from, span.to])
    labels.push({ t: c.t, label: text, kind: c.kind, count: c.count, row, y: -(L.topPx + row * L.rowPx), align: span.align })
  }
  labels.sort((a, b) => a.t - b.t)
  return { labels, unlabelled }
}

/**
 * Where a label may lie whose marker is between `lo` and `hi` pixels: beginning at its marker,
 * or, when it would run past the right edge, ending there; null when it fits neither way.
 */
function extent (lo, hi, width, chartWidth) {
  if (hi + 3 + width <= chartWidth) return { from: lo, to: hi + 3 + width, align: 'left' }
  if (lo - 3 - width >= 0) return { from: lo - 3 - width, to: hi, align: 'right' }
  return null
}

/**
 * Events with the same label whose texts would overlap (e.g. autovacuum of one table every few
 * seconds) become one cluster at the first one's time.
 */
function mergeRepeats (sorted, pxPerS, widthPx) {
  const open = new Map()
  const clusters = []
  for (const m of sorted) {
    const c = open.get(m.label)
    if (c && (m.t - c.t) * pxPerS < widthPx(`${m.label} ×${c.count + 1}`)) {
      c.count++
      continue
    }
    const next = { t: m.t, label: m.label, kind: m.kind, count: 1 }
    open.set(m.label, next)
    clusters.push(next)
  }
  return clusters
}
