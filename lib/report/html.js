// The self-contained HTML report: reports/report.html filled with the run headers, the chart
// specs (data inlined) and the vega, vega-lite and vega-embed bundles. Opens from file://.

import { readFileSync } from 'node:fs'
import { escapeHtml as h, jsonForScript } from './escape.js'
import { browserBundles } from './assets.js'
import { runHeaderHtml } from './header.js'
import { runKind } from './staged-header.js'
import { runSectionsHtml } from './run-sections.js'

const TEMPLATE = new URL('../../reports/report.html', import.meta.url)

/**
 * Replace `{{name}}` placeholders; function replacements so `$` in the bundles stays literal.
 * @param {string} template
 * @param {Record<string, string>} values
 * @returns {string}
 */
export function fill (template, values) {
  return template.replace(/\{\{(\w+)\}\}/g, (m, name) => (name in values ? values[name] : m))
}

/**
 * Build the HTML text of a report.
 * @param {{ doc: any, label: string | null }[]} runs
 * @param {{ charts: { title: string, run: string|null, spec: any }[], skipped: { title: string, run: string|null, reason: string }[] }} built from buildCharts
 * @param {{ toolVersion?: string, title?: string, header?: string, intro?: string, live?: string }} [opts] title and
 *   header: a page's own instead of the runs'; intro: markup before the runs' headers; live: markup added at the end of the body (lib/live's dashboard)
 * @returns {string}
 */
export function buildHtml (runs, built, opts = {}) {
  const several = runs.length > 1
  const first = runs[0].doc
  const title = opts.title ?? (several
    ? `pgload report: ${runs.length} runs compared`
    : singleTitle(first))
  const subtitle = runs.map(({ doc, label }) =>
    [several ? label : '', doc.run.workload, doc.run.startTime, doc.server?.version ? `PostgreSQL ${doc.server.version}` : ''].filter(Boolean).join(' · ')
  ).join(' | ')
  const skipped = built.skipped.length
    ? `<div class="skipped"><strong>Charts not drawn:</strong><ul>${built.skipped.map((s) =>
        `<li>${h(s.run ? `${s.run}: ` : '')}${h(s.title)}: ${h(s.reason)}</li>`).join('')}</ul></div>`
    : ''
  // opts.intro: what the runs add up to (ab's verdict), before the runs themselves
  const header = (opts.intro ?? '') + (opts.header ?? runs.map(({ doc, label }) => runHeaderHtml(doc, several ? label : null)).join('\n'))
  // Charts carry their own titles; with several runs a heading opens each run's group, and each
  // scenario's section opens with its heading and figures (lib/report/scenario-charts.js).
  const sections = built.charts.some((c) => c.sectionHtml !== undefined)
  let group
  const charts = built.charts.map((c, i) => {
    const key = [c.run, c.section].filter(Boolean).join(' · ') || (several ? 'All runs' : 'All scenarios together')
    const text = c.run ? `Run ${c.run}${c.section ? ` · ${c.section}` : ''}` : key
    const heading = (several || sections) && key !== group ? `<h3>${h(text)}</h3>\n${c.sectionHtml ?? ''}` : ''
    group = key
    return `${heading}<div class="chart" id="chart-${i}" role="img" aria-label="${h(chartLabel(c))}"></div>`
  }).join('\n')
  const runSections = runs.map(({ doc, label }) => runSectionsHtml(doc, several ? label : null)).join('\n')
  // $schema is a URL and only informs editors; vega-embed is told the mode instead.
  const specs = built.charts.map((c) => { const { $schema, ...rest } = c.spec; return rest })
  const bundles = browserBundles()
  const scripts = bundles.map((b) => `<script data-lib="${h(b.name)}@${h(b.version)}">\n${b.code}\n</script>`).join('\n')
  const generator = `pgload ${opts.toolVersion ?? first.tool?.version ?? ''} (${bundles.map((b) => `${b.name} ${b.version}`).join(', ')})`
  return fill(readFileSync(TEMPLATE, 'utf8'), {
    generator: h(generator),
    title: h(title),
    subtitle: h(subtitle),
    skipped,
    header,
    charts: charts + runSections,
    specs: jsonForScript(specs),
    scripts,
    live: opts.live ?? ''
  })
}

/** A chart's name for screen readers: its run's and its scenario's names before its title. */
function chartLabel (c) {
  const where = [c.run, c.sectionHtml === undefined ? null : c.section].filter(Boolean).join(' · ')
  return where ? `${where}: ${c.title}` : c.title
}

/** A capacity search or a staged run says so in its title, with the capacity found. */
function singleTitle (doc) {
  const kind = runKind(doc)
  if (kind === 'capacity') {
    const rate = doc.capacity.answer?.rate
    return `pgload capacity: ${doc.run.workload}, ${typeof rate === 'number' ? `${Math.round(rate).toLocaleString('en-US')} tps` : 'not found'}`
  }
  if (kind === 'stages') return `pgload report: ${doc.run.workload} in ${doc.stages.length} stages`
  return `pgload report: ${doc.run.workload}`
}
