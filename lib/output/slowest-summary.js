// The summary's block on the slowest transactions replayed under EXPLAIN (the results' `slowest`
// section, --explain-slowest): per type its slowest, its latency and its slowest statement's plan.

/**
 * @param {any} slowest the results' `slowest` section, or undefined
 * @returns {string} lines separated by '\n' (no trailing newline); '' without a section
 */
export function formatSlowestSummary (slowest) {
  if (!slowest) return ''
  if (slowest.available === false) return `slowest: not replayed: ${slowest.reason}`
  const lines = [`slowest: ${slowest.perType} per type replayed under EXPLAIN (${slowest.explain}), rolled back`]
  for (const [name, list] of Object.entries(slowest.types ?? {})) {
    const first = list[0]
    if (!first) continue
    const top = slowestStatement(first.statements)
    const plan = top ? `; statement ${top.command + 1}${top.line !== undefined ? ` (line ${top.line})` : ''} ${top.totalMs} ms: ${top.topNode}` : '; no statement replayed'
    lines.push(`  ${name}: ${first.latencyMs} ms${plan}`)
  }
  return lines.join('\n')
}

/** The replayed statement whose plan took longest. */
function slowestStatement (statements) {
  let top = null
  for (const s of statements) if (s.plan && (top === null || (s.totalMs ?? 0) > (top.totalMs ?? 0))) top = s
  return top
}
