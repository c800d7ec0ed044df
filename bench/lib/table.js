// Plain-text tables for the bench scripts' output (right-aligned numbers, a rule under the header).

/**
 * @param {string[]} header
 * @param {(string|number)[][]} rows
 * @returns {string}
 */
export function formatTable (header, rows) {
  const cells = [header, ...rows.map(r => r.map(formatCell))]
  const widths = header.map((_, i) => Math.max(...cells.map(r => String(r[i] ?? '').length)))
  const line = (r) => r.map((c, i) => {
    const s = String(c ?? '')
    return i === 0 ? s.padEnd(widths[i]) : s.padStart(widths[i])
  }).join('  ').trimEnd()
  return [line(header), widths.map(w => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n')
}

function formatCell (v) {
  if (v === null || v === undefined) return '-'
  if (typeof v !== 'number') return v
  if (!Number.isFinite(v)) return '-'
  if (Number.isInteger(v)) return String(v)
  if (Math.abs(v) >= 100) return v.toFixed(0)
  if (Math.abs(v) >= 10) return v.toFixed(1)
  return v.toFixed(2)
}
