// pgload as a library: `import { runBenchmark } from 'pgload'`.

export { runBenchmark } from './benchmark.js'
export { Run } from './engine/run.js'
export { openConnection, defineStatement } from './db/connection.js'
export { resolveTarget } from './server/target.js'
export { ensureEmbeddedServer, startServer, stopServer, serverStatus } from './server/embedded.js'
export { readResults, validateResults, SCHEMA_VERSION } from './results/read.js'
export { writeResults } from './results/write.js'
export { createHistogram, recordUs, encodeHistogram, decodeHistogram, mergeHistograms, latencySummaryMs } from './metrics/histogram.js'
export { parseDistribution } from './options/distribution.js'
export { PgloadError, ClientAbortError } from './errors.js'
export { loadWorkload, workloadNames } from '../workloads/index.js'
