// Every TPC-C default in one table, with its unit (clauses 5.2.3, 5.2.5, 4.2.2).

import { availableParallelism } from 'node:os'

export const DEFAULTS = Object.freeze({
  warehouses: 1, // init: warehouses to load; run: all that are loaded
  runDurationS: 60, // run: measured seconds when neither a duration nor a transaction count is given
  // init: parallel COPY connections. PostgreSQL parses COPY on one core per connection and the
  // generator costs about a quarter of that, so one connection per core (at least 2) keeps both busy.
  jobs: Math.max(2, Math.min(8, availableParallelism())),
  maintenanceWorkMem: '256MB', // init: per index-building connection
  terminalsPerWarehouse: 10, // clause 4.2.2
  waitScale: 1, // multiplier of keying and think times
  // Keying times (ms, constant) and mean think times (ms, negative exponential truncated at
  // 10x the mean), per transaction type (clauses 5.2.5.2, 5.2.5.4, 5.2.5.7).
  keyingMs: { 'new-order': 18000, payment: 3000, 'order-status': 2000, delivery: 2000, 'stock-level': 2000 },
  thinkMeanMs: { 'new-order': 12000, payment: 12000, 'order-status': 10000, delivery: 5000, 'stock-level': 5000 },
  thinkCapFactor: 10,
  // Ramp-up of a paced run (ramp-up.js): added to one mean cycle and the longest keying time for
  // the first transaction's own response time.
  rampUpResponseAllowanceMs: 1000,
  // Progress lines: tpmC over the last this many seconds (or since the start, when shorter).
  progressTpmWindowS: 60,
  // The mix in percent (clause 5.2.3) and the 23-card deck that realises it (clause 5.2.4.2).
  mix: { 'new-order': 45, payment: 43, 'order-status': 4, delivery: 4, 'stock-level': 4 },
  minimumMix: { payment: 43, 'order-status': 4, delivery: 4, 'stock-level': 4 },
  deck: { 'new-order': 10, payment: 10, 'order-status': 1, delivery: 1, 'stock-level': 1 },
  // Pool size for spec-paced runs: a paced terminal is busy well under 1 % of the time, so
  // one connection per 2 warehouses (20 terminals) leaves ample headroom; at least 4, at most 100.
  pacedConnectionsPerWarehouse: 0.5,
  pacedConnectionsMin: 4,
  pacedConnectionsMax: 100,
  unpacedConnectionsMax: 64, // --no-wait: one connection per terminal up to this
  // Delivery: 'deferred' (clause 2.7.2: the terminal queues, workers deliver) for paced runs,
  // 'inline' (in the terminal's transaction) for --no-wait, where a queue would only grow.
  deliveryWarehousesPerWorker: 50, // one delivery worker connection per this many warehouses (a worker is busy ~5 % at 50)
  deliveryWorkersMax: 8,
  deliveryDrainMs: 120000, // after the run, wait at most this long for queued deliveries
  responseLimitS: { 'new-order': 5, payment: 5, 'order-status': 5, delivery: 5, 'stock-level': 20 }, // clause 5.2.5.3
  maxTpmCPerWarehouse: 12.86, // clause 4.1.3 (10 terminals, 45 % New-Order, 20.99 s mean cycle)
  minServerVersionNum: 130000
})

/** Transaction type names in their conventional order. */
export const TYPES = Object.freeze(['new-order', 'payment', 'order-status', 'delivery', 'stock-level'])
