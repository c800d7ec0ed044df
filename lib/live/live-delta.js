// What changed on the dashboard between two of its states: per chart, the rows appended to each
// dataset (the page inserts them into its Vega view with a changeset), a dataset sent whole when
// earlier rows changed (a rolling mean, a re-laid marker), and the spec only when it changed (a
// new layer, another domain), so that after the first full update an interval sends what is new.

/**
 * One chart of the page: its spec without data, and its named datasets.
 * @typedef {{ name: string, title: string, spec: any, specKey: string, datasets: Record<string, any[]> }} LiveChart
 */

/**
 * The page at one version: header, skipped list, charts, and how far the run got.
 * @typedef {{ version: number, header: string, skipped: string, charts: LiveChart[], points: number, phase: string, histogramsAtS: number }} LiveState
 *   histogramsAtS: the run's second when the whole-run histogram charts were last drawn
 */

/**
 * A chart's change: `spec` when it changed (the page embeds the chart again with its datasets),
 * `data` per dataset name: `{ insert: rows }` appended, or `{ replace: rows }` the whole of it.
 * @typedef {{ i: number, spec?: any, data: Record<string, { insert?: any[], replace?: any[] }> }} ChartChange
 */

/**
 * The update that brings a page from `prev` to `next`, or null when the charts are not the same
 * ones (the page then needs a full update).
 * @param {LiveState} prev
 * @param {LiveState} next
 * @returns {{ full: false, version: number, header: string, skipped: string, points: number, phase: string, charts: ChartChange[] }|null}
 */
export function liveDelta (prev, next) {
  if (prev.charts.length !== next.charts.length) return null
  const charts = []
  for (let i = 0; i < next.charts.length; i++) {
    const a = prev.charts[i]
    const b = next.charts[i]
    if (a.name !== b.name) return null
    const change = { i, data: datasetChanges(a.datasets, b.datasets) }
    if (a.specKey !== b.specKey) change.spec = b.spec
    if (change.spec || Object.keys(change.data).length > 0) charts.push(change)
  }
  const { version, header, skipped, points, phase } = next
  return { full: false, version, header, skipped, points, phase, charts }
}

/**
 * The full update: every chart's spec with its datasets (a page that just connected, or charts
 * that came or went).
 * @param {LiveState} state
 */
export function fullUpdate (state) {
  const { version, header, skipped, points, phase } = state
  return { full: true, version, header, skipped, points, phase, charts: state.charts.map((c) => ({ name: c.name, title: c.title, spec: c.spec, datasets: c.datasets })) }
}

/**
 * @param {Record<string, any[]>} before
 * @param {Record<string, any[]>} after
 * @returns {Record<string, { insert?: any[], replace?: any[] }>}
 */
function datasetChanges (before, after) {
  const out = {}
  for (const [name, rows] of Object.entries(after)) {
    const old = before[name] ?? []
    if (rows === old) continue
    const n = old.length
    if (rows.length >= n && samePrefix(old, rows)) {
      if (rows.length > n) out[name] = { insert: rows.slice(n) }
    } else {
      out[name] = { replace: rows }
    }
  }
  return out
}

function samePrefix (old, rows) {
  for (let i = 0; i < old.length; i++) if (!sameRow(old[i], rows[i])) return false
  return true
}

/** Rows are flat records of numbers and strings; anything nested is compared as JSON. */
function sameRow (a, b) {
  const keys = Object.keys(a)
  if (keys.length !== Object.keys(b).length) return false
  for (const k of keys) {
    const x = a[k]
    const y = b[k]
    if (x === y) continue
    if (typeof x !== 'object' || x === null || JSON.stringify(x) !== JSON.stringify(y)) return false
  }
  return true
}
