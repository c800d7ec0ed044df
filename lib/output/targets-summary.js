// The summary's `target` lines (--route): per server, its transaction types, their transactions,
// failures and latency, and what the server counted itself; then --staleness's lines.

const n = (v) => Number(v ?? 0).toLocaleString('en-US')
const ms = (v) => v === null || v === undefined ? '-' : `${v.toFixed(3)} ms`

/**
 * @param {any} results a results document
 * @returns {string[]} after an empty line; none for a run without routes
 */
export function formatTargets (results) {
  const targets = results.targets
  if (!targets || typeof targets !== 'object') return []
  const lines = ['']
  for (const [name, t] of Object.entries(targets)) {
    const types = t.types?.length ? t.types.join(', ') : 'no type'
    lines.push(`target ${name} (${t.server}): ${types}: ${n(t.count)} transactions, ${n(t.failed)} failed, latency p50 ${ms(t.latencyMs?.p50)}, p99 ${ms(t.latencyMs?.p99)}`)
    const s = t.stats
    if (s?.error) lines.push(`  server figures: not read (${s.error})`)
    else if (s) {
      const most = s.maxReplayLagMs === null || s.maxReplayLagMs === undefined ? '' : ` (at most ${ms(s.maxReplayLagMs)} at an interval's end)`
      const lag = s.replayLagMs === null || s.replayLagMs === undefined ? '' : `, replay ${s.standby ? 'behind the primary' : 'lag of its standbys'} at the end ${ms(s.replayLagMs)}${most}`
      lines.push(`  ${s.standby ? 'standby' : 'primary'} counted: ${n(s.xact_commit)} commits, ${n(s.tup_returned)} rows returned, ${n(s.tup_inserted + s.tup_updated + s.tup_deleted)} rows written${lag}`)
    }
  }
  return [...lines, ...stalenessLines(results.staleness)]
}

/** --staleness (lib/engine/staleness.js): the reads checked, how far behind, the violations. */
function stalenessLines (st) {
  if (!st || typeof st !== 'object') return []
  const lines = [`staleness: ${n(st.reads)} routed reads checked against their client's own acknowledged writes (${n(st.stamps)} stamps), ${n(st.violations)} read-your-writes violation${st.violations === 1 ? '' : 's'}`]
  if (st.violations > 0) {
    const b = st.behindMs ?? {}
    lines.push(`staleness: the reads behind were behind by p50 ${ms(b.p50)}, p99 ${ms(b.p99)}, max ${ms(b.max)}; by p50 ${n(st.behindStamps?.p50)}, max ${n(st.behindStamps?.max)} writes`)
  }
  const errors = (st.readErrors ?? 0) + (st.stampErrors ?? 0)
  if (errors > 0) lines.push(`staleness: ${n(st.stampErrors)} stamps and ${n(st.readErrors)} checks failed (not counted above)`)
  return lines
}
