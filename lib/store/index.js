// Public surface of the results database (docs/results-database.md): storing results files and
// sweeps, history, and stored baselines.

export { openResultsStore, withResultsStore, RESULTS_DATABASE } from './connect.js'
export { ensureSchema, STORE_SCHEMA, STORE_VERSION } from './schema.js'
export { storeRunDocument } from './store-run.js'
export { storeSweep } from './store-sweep.js'
export { storeFiles, storeFile, storeResults } from './store-files.js'
export { queryHistory, formatHistory, historyMetric, HISTORY_METRICS, HISTORY_DEFAULTS } from './history.js'
export { writeHistoryChart, historySpec } from './history-chart.js'
export { isStoredBaseline, parseStoredBaseline, loadStoredBaseline, describeStoredBaseline, STORED_BASELINE_RUNS } from './baseline.js'
export { contentKey } from './run-rows.js'
export { isSweepDocument, SWEEP_FORMAT } from '../sweep/document.js'
