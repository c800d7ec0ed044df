// The sweep report as one self-contained HTML file: the run report's template (reports/report.html)
// filled with the sweep's header, its chart specs (data inlined) and the vega bundles.

import { readFileSync } from 'node:fs'
import { escapeHtml as h, jsonForScript } from '../escape.js'
import { browserBundles } from '../assets.js'
import { sweepHeaderHtml, axesText } from './header.js'
import { fill } from '../html.js'

const TEMPLATE = new URL('../../../reports/report.html', import.meta.url)

/**
 * Build the HTML text of a sweep report.
 * @param {any} sweep a checked sweep document
 * @param {import('./axes.js').SweepShape} shape
 * @param {{ charts: { title: string, spec: any }[], skipped: { title: string, reason: string }[] }} built from buildSweepCharts
 * @param {Parameters<typeof sweepHeaderHtml>[2]} parts
 * @returns {string}
 */
export function buildSweepHtml (sweep, shape, built, parts) {
  const title = `pgload sweep report: ${sweep.label ?? sweep.workload}`
  const server = sweep.server?.version ? `PostgreSQL ${sweep.server.version}` : ''
  const subtitle = [sweep.workload, axesText(sweep, shape), server, sweep.createdAt].filter(Boolean).join(' · ')
  const skipped = built.skipped.length
    ? `<div class="skipped"><strong>Charts not drawn:</strong><ul>${built.skipped.map((s) => `<li>${h(s.title)}: ${h(s.reason)}</li>`).join('')}</ul></div>`
    : ''
  const charts = built.charts.map((c, i) => `<div class="chart" id="chart-${i}" role="img" aria-label="${h(c.title)}"></div>`).join('\n')
  // $schema is a URL and only informs editors; vega-embed is told the mode instead.
  const specs = built.charts.map((c) => { const { $schema, ...rest } = c.spec; return rest })
  const bundles = browserBundles()
  const scripts = bundles.map((b) => `<script data-lib="${h(b.name)}@${h(b.version)}">\n${b.code}\n</script>`).join('\n')
  const values = {
    generator: h(`pgload ${sweep.toolVersion ?? ''} (${bundles.map((b) => `${b.name} ${b.version}`).join(', ')})`),
    title: h(title),
    subtitle: h(subtitle),
    skipped,
    header: sweepHeaderHtml(sweep, shape, parts),
    charts,
    specs: jsonForScript(specs),
    scripts,
    live: ''
  }
  // Function replacements, so `$` in the bundles stays literal.
  return fill(readFileSync(TEMPLATE, 'utf8'), values)
}
