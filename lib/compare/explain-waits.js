// compare's reason for a verdict: for a transaction type whose latency got significantly worse,
// the wait events (lib/waits: the server's own, sampled on the run's backends) whose time per
// transaction grew most from A to B, each with its interval, and the time outside the server.
// A run is a sample of the server's time: an event's samples are counted (Poisson), so its time
// per transaction has a standard error of sqrt(samples) x the sampling interval / transactions.

/** z of the two-sided 95 % interval of an event's growth */
const Z95 = 1.96
/** events named per type, the largest growth first */
const TOP_EVENTS = 3

/**
 * The explanation of a verdict's worse latency rows, by the wait events that grew.
 * @param {object[]} as results documents of A
 * @param {object[]} bs results documents of B
 * @param {{ verdict: string, unit: string, txn: string|null, stage?: number }[]} rows the verdict's rows
 * @returns {{ type: string, events: { event: string, aMs: number, bMs: number, deltaMs: number, lo: number, hi: number }[],
 *   outsideMs: { a: number|null, b: number|null } }[]|null} null when a side has no wait samples
 */
export function explainWaits (as, bs, rows) {
  const worse = rows.filter((r) => r.verdict === 'worse' && r.unit === 'ms' && !r.stage)
  if (worse.length === 0) return []
  const a = pooled(as)
  const b = pooled(bs)
  if (!a || !b) return null
  // a type of its own, or every type when only the run's overall latency is worse
  const types = worse.some((r) => r.txn === null) ? [...new Set([...a.keys(), ...b.keys()])] : [...new Set(worse.map((r) => r.txn))]
  return types.filter((t) => a.has(t) && b.has(t)).map((type) => ({
    type,
    events: grownEvents(a.get(type), b.get(type)),
    outsideMs: { a: a.get(type).outsideMs, b: b.get(type).outsideMs }
  }))
}

/**
 * One side's wait samples per type, its runs added up: ms of server time per event and the
 * transactions they are spread over.
 * @returns {Map<string, { transactions: number, ms: Map<string, { ms: number, varMs2: number }>, outsideMs: number|null }>|null}
 */
function pooled (docs) {
  const out = new Map()
  for (const d of docs) {
    const w = d.waits
    if (!w || w.available === false || !w.types || !(w.intervalMs > 0)) return null
    for (const [type, t] of Object.entries(w.types)) {
      const p = out.get(type) ?? { transactions: 0, ms: new Map(), outside: [] }
      p.transactions += t.transactions ?? 0
      for (const e of t.events ?? []) {
        const m = p.ms.get(e.event) ?? { ms: 0, varMs2: 0 }
        m.ms += e.samples * w.intervalMs
        m.varMs2 += e.samples * w.intervalMs * w.intervalMs
        p.ms.set(e.event, m)
      }
      if (Number.isFinite(t.outsideMs)) p.outside.push([t.outsideMs, t.transactions ?? 0])
      out.set(type, p)
    }
  }
  for (const p of out.values()) {
    const n = p.outside.reduce((s, [, c]) => s + c, 0)
    p.outsideMs = n > 0 ? p.outside.reduce((s, [ms, c]) => s + ms * c, 0) / n : null
    delete p.outside
  }
  return out
}

/** The events whose time per transaction grew, the growth's interval above zero, largest first. */
function grownEvents (a, b) {
  if (!(a.transactions > 0) || !(b.transactions > 0)) return []
  const events = new Set([...a.ms.keys(), ...b.ms.keys()])
  const grown = []
  for (const event of events) {
    const x = a.ms.get(event) ?? { ms: 0, varMs2: 0 }
    const y = b.ms.get(event) ?? { ms: 0, varMs2: 0 }
    const aMs = x.ms / a.transactions
    const bMs = y.ms / b.transactions
    const se = Math.sqrt(x.varMs2 / a.transactions ** 2 + y.varMs2 / b.transactions ** 2)
    const deltaMs = bMs - aMs
    const lo = deltaMs - Z95 * se
    if (lo > 0) grown.push({ event, aMs: round(aMs), bMs: round(bMs), deltaMs: round(deltaMs), lo: round(lo), hi: round(deltaMs + Z95 * se) })
  }
  return grown.sort((p, q) => q.deltaMs - p.deltaMs).slice(0, TOP_EVENTS)
}

const round = (x) => Math.round(x * 1000) / 1000
