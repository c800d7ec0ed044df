// Public surface of the report module: render results documents to SVG, PNG and HTML.

export { renderReport, writeHtmlReport, labelRuns, REPORT_DEFAULTS, FORMATS } from './render-report.js'
export { buildCharts, fillSpec, loadSpec, RUN_CHARTS, COMPARE_CHART } from './charts.js'
export { renderSvg } from './svg.js'
export { svgToPng } from './png.js'
