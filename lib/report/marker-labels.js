// Text labels of server events (autovacuum, checkpoints) on a time chart, laid out so that no
// two overlap: repeats of one event close together become one "×n" label, the rest are stacked
// in a few rows, and what still does not fit is left to the marks' tooltips.

/** Layout constants of the label rows (pixels, at the specs' 10 px label font). */
export const LABEL_LAYOUT = {
  chartWidthPx: 640, // plot width of the time charts (reports/*.vl.json)
  charPx: 6.2, // an upper bound of one character's width at 10 px (vega estimates without a canvas)
  gapPx: 8, // free space between two labels of a row
  rowPx: 12, // distance between rows
  topPx: 2, // first row's distance from the top of the plot
  rows: 3 // at most this many rows of labels
}

/**
 * The x domain vega draws is "nice": it may end up to a tick step past the data. Positions are
 * estimated on this larger extent so that labels are never closer than estimated.
 */
const NICE_SLACK = 1.25

/**
 * @typedef {{ t: number, label: string, kind?: string }} Marker
 * @typedef {{ t: number, label: string, count: number, row: number, y: number, align: 'left'|'right' }} MarkerLabel
 */

/**
 * Lay out marker labels over a time axis from 0 to `maxT` seconds.
 * @param {Marker[]} markers sorted or not
 * @param {number} maxT the largest time on the axis
 * @param {Partial<typeof LABEL_LAYOUT>} [layout]
 * @returns {{ labels: MarkerLabel[], unlabelled: number }} unlabelled: events with no text
 */
export function layoutMarkerLabels (markers, maxT, layout = {}) {
  const L = { ...LABEL_LAYOUT, ...layout }
  const pxPerS = L.chartWidthPx / (Math.max(maxT, 1e-9) * NICE_SLACK)
  const widthPx = (text) => text.length * L.charPx
  // Checkpoint spans are few and matter most: their labels take their places first.
  const byKind = (a, b) => (a.kind === 'checkpoint' ? 0 : 1) - (b.kind === 'checkpoint' ? 0 : 1) || a.t - b.t
  const clusters = mergeRepeats([...markers].sort((a, b) => a.t - b.t), pxPerS, widthPx).sort(byKind)
  const rows = []
  const labels = []
  let unlabelled = 0
  for (const c of clusters) {
    const text = c.count > 1 ? `${c.label} ×${c.count}` : c.label
    // A label that would run past the right edge ends at its marker instead.
    const x = c.t * pxPerS
    const right = x + 3 + widthPx(text) > L.chartWidthPx
    const from = right ? x - 3 - widthPx(text) : x
    const to = right ? x : x + 3 + widthPx(text)
    const free = (taken) => taken.every(([a, b]) => to + L.gapPx <= a || from >= b + L.gapPx)
    let row = rows.findIndex(free)
    if (row === -1 && rows.length < L.rows) row = rows.push([]) - 1
    if (row === -1) {
      unlabelled += c.count
      continue
    }
    rows[row].push([from, to])
    labels.push({ t: c.t, label: text, count: c.count, row, y: L.topPx + row * L.rowPx, align: right ? 'right' : 'left' })
  }
  labels.sort((a, b) => a.t - b.t)
  return { labels, unlabelled }
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
