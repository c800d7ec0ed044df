// JUnit XML for CI systems: one test case per threshold (a failure element when it failed).

const escapeXml = (s) => String(s)
  .replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;')
  // XML 1.0 forbids most control characters even escaped
  // eslint-disable-next-line no-control-regex
  .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')

/**
 * @param {{ expr: string, pass: boolean, actual: number|null, limit: number|null, unit: string, reason: string|null }[]} results
 * @param {{ suite?: string, file?: string, timestamp?: string }} [opts]
 * @returns {string} a JUnit XML document
 */
export function junitXml (results, { suite = 'pgload thresholds', file, timestamp } = {}) {
  const failures = results.filter(r => !r.pass).length
  const stamp = timestamp ? ` timestamp="${escapeXml(timestamp)}"` : ''
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${escapeXml(suite)}" tests="${results.length}" failures="${failures}" errors="0">`,
    `  <testsuite name="${escapeXml(suite)}" tests="${results.length}" failures="${failures}" errors="0" skipped="0"${stamp}>`
  ]
  for (const r of results) {
    const name = escapeXml(r.expr)
    const classname = escapeXml(file ? `pgload.${file}` : 'pgload')
    const unit = r.unit ? ` ${r.unit}` : ''
    const figures = `actual ${r.actual ?? 'none'}${r.actual === null ? '' : unit}, limit ${r.limit ?? 'none'}${r.limit === null ? '' : unit}`
    if (r.pass) {
      lines.push(`    <testcase name="${name}" classname="${classname}" time="0">`)
      lines.push(`      <system-out>${escapeXml(figures + (r.reason ? `; ${r.reason}` : ''))}</system-out>`)
      lines.push('    </testcase>')
    } else {
      lines.push(`    <testcase name="${name}" classname="${classname}" time="0">`)
      lines.push(`      <failure message="${escapeXml(r.reason ?? 'threshold failed')}" type="threshold">${escapeXml(`${r.expr}: ${figures}`)}</failure>`)
      lines.push('    </testcase>')
    }
  }
  lines.push('  </testsuite>', '</testsuites>')
  return lines.join('\n') + '\n'
}
