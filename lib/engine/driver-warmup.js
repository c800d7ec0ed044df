// The driver's warm-up: before the measured run, the workload's twin runs for a fraction of a
// second against a stand-in server in this process (lib/db/stand-in-server.js), on the same
// connection code and over a loopback socket as the real run. V8 starts every function
// interpreted and optimizes it only once it has run enough; without the warm-up, that happens in
// the run's first half second, whose first quarter second then ran 28-36 % below the steady
// throughput with a latency p99 two to three times pgbench's (bench/warmup.js). The database is
// not touched and the run's own workload (its generators, statistics, logs) is not used.

import { Run } from './run.js'
import { startStandInServer } from '../db/stand-in-server.js'

// Two runs of fresh objects: the first one's objects leave V8's maps as they end up (fields
// generalized from small integers to doubles and the like), so the code optimized in the second
// one meets the same maps as the measured run's fresh objects, instead of being thrown away
// ("wrong map") and compiled again in the measured run's first half second.
const ROUNDS = 2

/** How long the twin runs, and on how many terminals. */
export const WARMUP_DEFAULTS = Object.freeze({ ms: 400, clients: 4 })

/**
 * @typedef {object} DriverWarmup
 * @property {number} transactions run against the stand-in server
 * @property {number} ms wall time, the stand-in's start and stop included
 */

/**
 * Warm the driver up, or do nothing when the workload has no twin for it (it returns null).
 * Never throws: a warm-up that fails leaves the run as it would have been without one.
 * @param {object} workload with `warmupTwin(clients)` (lib/script/workload.js)
 * @param {{ open: (target: any, opts: { protocol?: string }) => Promise<any>, target?: any, protocol?: string,
 *   ms?: number, clients?: number, log?: import('pino').Logger }} opts
 * @returns {Promise<DriverWarmup|null>}
 */
export async function warmDriver (workload, { open, target, protocol, ms = WARMUP_DEFAULTS.ms, clients = WARMUP_DEFAULTS.clients, log }) {
  if (typeof workload.warmupTwin !== 'function' || !(ms > 0)) return null
  // TLS cannot be mirrored here: the connections' code would not be the run's
  if (target?.config?.ssl) return null
  const twin = workload.warmupTwin(clients)
  if (twin === null) return null
  const t0 = performance.now()
  let server = null
  try {
    server = await startStandInServer({ password: typeof target?.config?.password === 'string' ? target.config.password : undefined })
    // The run's connection settings with the stand-in's address: objects of the same shape as
    // the run's (a field seen holding another shape would throw the optimized code away).
    const standIn = { ...server.target, config: { ...server.target.config, ...target?.config, host: server.target.config.host, port: server.port } }
    let transactions = 0
    for (let round = 0; round < ROUNDS; round++) {
      const run = new Run(round === 0 ? twin : workload.warmupTwin(clients), {
        openConnection: () => open(standIn, { protocol }),
        clients,
        durationS: ms / 1000 / ROUNDS,
        seed: 0n,
        serverLostS: 0,
        log // the run's: a Run of another shape would not share the optimized code
      })
      transactions += (await run.execute()).summary.transactions
    }
    return { transactions, ms: Math.round(performance.now() - t0) }
  } catch (err) {
    log?.debug?.({ err: err?.message }, 'driver warm-up failed; the run goes on without it')
    return null
  } finally {
    await server?.close().catch(() => {})
  }
}
