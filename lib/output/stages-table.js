// The summary's table of stages (--stages, --clients-stages): one row per stage, its target
// against what it achieved, its arrivals and their outcomes (each counted in the stage it arrived
// in, so a row adds up), and its latency.

const f1 = (v) => v === null || v === undefined ? '-' : v.toFixed(1)
const f3 = (v) => v === null || v === undefined ? '-' : v.toFixed(3)
const num = (v) => String(v ?? 0)

/** Arrivals neither completed, failed nor dropped: skipped, cancelled unfinished, outcome unknown. */
const other = (s) => (s.skipped ?? 0) + (s.unfinished ?? 0) + (s.outcomeUnknown ?? 0)

/** The target as typed: `0->500` for a ramp, `16` for a step or a hold. */
function target (s) {
  const { from, to } = s.target
  return s.ramp && from !== to ? `${from}->${to}` : String(to)
}

/**
 * @param {any} results a results document
 * @returns {string} '' without stages
 */
export function formatStages (results) {
  const stages = results.stages
  if (!Array.isArray(stages) || stages.length === 0) return ''
  const rate = stages[0].kind === 'rate'
  const head = ['stage', 'from s', 'to s', rate ? 'target tps' : 'clients', ...(rate ? ['offered', 'arrivals'] : []), 'achieved', 'count', 'failed', ...(rate ? ['dropped', 'other'] : []), 'p50', 'p99', rate ? 'wait p99' : 'max']
  const rows = [head]
  for (const s of stages) {
    const l = s.summary.latencyMs
    rows.push([
      String(s.index + 1), f1(s.startS), f1(s.startS + s.lengthS), target(s),
      ...(rate ? [f1(s.offeredTps), num(s.summary.arrivals)] : []),
      f1(s.achievedTps), num(s.summary.transactions), num(s.summary.failed),
      ...(rate ? [num(s.dropped), num(other(s.summary))] : []),
      f3(l.p50), f3(l.p99), rate ? f3(s.summary.lagMs?.p99) : f3(l.max)
    ])
  }
  const widths = head.map((_, i) => Math.max(...rows.map((r) => r[i].length)))
  const out = rows.map((r) => r.map((c, i) => i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])).join('  '))
  out.splice(1, 0, widths.map((w) => '-'.repeat(w)).join('  '))
  const title = rate
    ? 'stages (arrivals per second; each arrival counts in its stage: arrivals = count + failed + dropped + other (skipped, unfinished, outcome unknown); latency in ms from the scheduled arrival; wait: for a free terminal):'
    : 'stages (active clients; latency in ms):'
  return title + '\n' + out.join('\n')
}
