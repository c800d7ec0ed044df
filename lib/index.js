// pgload as a library: `import { runBenchmark, RunSession } from 'pgload'`. A run is reached
// through its handle (createRun, or the session's 'run' event and an output's start), never
// through the engine's classes.

export { runBenchmark } from './session/run-benchmark.js' // one run, its results file written
export { resolvePlan, isPlan } from './plan/resolve.js'
export { DEFAULTS as RUN_DEFAULTS } from './plan/defaults.js'
export { RunSession } from './session/run-session.js' // one run or a sequence, its outputs and the interrupt policy
export { defineOutput } from './session/output.js' // the output interface: start, interval, stage, end, close
export { trapInterrupts, INTERRUPT_EXIT_CODES } from './session/interrupts.js'
export { createRun } from './engine/create-run.js' // the run handle (lib/engine/run-handle.js), one thread or worker threads (-j)
export { planSource } from './orchestration/thread-part.js' // how worker threads rebuild a plan's workload
export { applyDriverV8Flags } from './engine/v8-flags.js' // the command line's V8 settings, for runs in your process
export { openConnection, defineStatement } from './db/connection.js'
export { resolveTarget } from './server/target/resolve-target.js'
export { ensureEmbeddedServer, startServer, stopServer, serverStatus } from './server/embedded/embedded-server.js'
export { readResults, validateResults, SCHEMA_VERSION } from './results/read.js'
export { writeResults } from './results/write.js'
export { mergeResults } from './results/merge.js'
export { createHistogram, recordUs, encodeHistogram, decodeHistogram, mergeHistograms, latencySummaryMs } from './metrics/histogram.js'
export { parseDistribution } from './options/distribution.js'
export { PgloadError, ClientAbortError } from './errors.js'
export { loadWorkload, workloadNames } from '../workloads/index.js'
export { parseThreshold, evaluateThresholds } from './compare/thresholds/evaluate.js'
export { compareRuns } from './compare/verdict.js'
export { renderReport, writeHtmlReport } from './report/index.js'
export { storeSweep, storeFiles, storeResults, queryHistory, openResultsStore } from './store/index.js'
