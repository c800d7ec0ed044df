// The report's sections after the charts, each a run's own (a module per section, listed here).

import { slowestHtml } from './slowest-html.js'

/** Each section: (doc, label) -> markup, '' when the run has nothing for it. */
const SECTIONS = [slowestHtml]

/**
 * @param {any} doc a results document
 * @param {string|null} label the run's label when the report has several
 * @returns {string}
 */
export function runSectionsHtml (doc, label) {
  return SECTIONS.map((section) => section(doc, label)).filter(Boolean).join('\n')
}
