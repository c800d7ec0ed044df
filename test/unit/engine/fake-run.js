// A terminal's world in simulated time, for unit tests: a fake clock, a scheduler that wakes
// terminals on that clock (as late as the test says the event loop is), a pool of fake
// connections and a recorder that remembers every call. No server, no timer.

import { TerminalContext } from '../../../lib/engine/terminal-context.js'
import { Terminal } from '../../../lib/engine/terminal.js'
import { ConnectionPool } from '../../../lib/engine/pool.js'
import { Recorder } from '../../../lib/metrics/recorder.js'
import { Prng } from '../../../lib/random/prng.js'

/** A recorder that also keeps each call, with its exact values. */
class SpyRecorder extends Recorder {
  constructor (...args) {
    super(...args)
    this.calls = []
  }

  ok (type, latencyUs, lagUs, queueUs, rolledBack) {
    this.calls.push({ call: 'ok', type, latencyUs, lagUs, queueUs, rolledBack })
    super.ok(type, latencyUs, lagUs, queueUs, rolledBack)
  }

  failed (type, code) { this.calls.push({ call: 'failed', type, code }); super.failed(type, code) }
  skipped (type) { this.calls.push({ call: 'skipped', type }); super.skipped(type) }
  unfinished (type, waitedUs) { this.calls.push({ call: 'unfinished', type, waitedUs }); super.unfinished(type, waitedUs) }
  retriedTimes (type, n) { this.calls.push({ call: 'retried', type, n }); super.retriedTimes(type, n) }

  /** @param {string} call */
  only (call) { return this.calls.filter((c) => c.call === call) }
}

/** A connection that answers whatever the test's transaction does; ROLLBACK resets its status. */
export function fakeConnection (pid) {
  const conn = {
    backendPid: pid,
    broken: false,
    closed: false,
    transactionStatus: 'I',
    commitInFlight: false,
    rollbacks: 0,
    async prepare () {},
    async simpleQuery (sql) {
      if (sql === 'ROLLBACK') { conn.rollbacks++; conn.transactionStatus = 'I' }
    },
    async close () { conn.closed = true }
  }
  return conn
}

/**
 * A random source whose every draw is `u`: with it, each gap of the --rate schedule is exactly
 * -ln(1 - u) times the mean gap (u = 1 - 1/e: the mean gap itself).
 */
export const constantRandom = (u) => ({ double: () => u, int: (lo) => lo })
export const MEAN_GAP = 1 - Math.exp(-1)

/**
 * @param {object} p
 * @param {(world: object) => object[]} p.types makes the transaction types; their
 *   `start(ctx, done)` may use `world.after` to answer
 * @param {object} [p.settings] TerminalSettings
 * @param {number} [p.terminals]
 * @param {number} [p.connections] pool size
 * @param {number} [p.wakeLateUs] how late the event loop wakes a terminal after its time
 * @param {{ double(): number }} [p.waitRandom] draws of the waits (arrivals, think, keying)
 * @param {object} [p.hooks] the workload's hooks besides its transactions (choose, firstWaitUs, ...)
 */
export async function fakeRun ({ types: makeTypes, settings = {}, terminals = 1, connections = 1, wakeLateUs = 0, waitRandom = Prng.fromSeed(9n), hooks = {} }) {
  const world = {
    nowUs: 0,
    events: [],
    seq: 0,
    finished: [],
    cancels: [],
    aborted: [],
    otherErrors: [],
    retryable: [],
    bugs: [],
    started: false,
    /** run `fn` at `atUs` on the fake clock */
    at (atUs, fn) { world.events.push({ atUs, seq: world.seq++, fn }) },
    /** run `fn` `us` from now (a server answering) */
    after (us, fn) { world.at(world.nowUs + us, fn) }
  }
  const scheduler = {
    add: (atUs, waiter) => world.at(atUs + wakeLateUs, () => waiter.wake(world.nowUs)),
    wakeDue () {},
    stop () {}
  }
  const types = makeTypes(world)
  let pid = 0
  const pool = new ConnectionPool({ open: async () => fakeConnection(++pid), size: connections })
  await pool.fill()
  const recorder = new SpyRecorder(types.map((t) => t.name), { latencyLimitUs: settings.latencyLimitUs ?? 0 })
  // the terminals' settings as EngineSettings has them; tests give the arrivals' mean gap
  const { rateIntervalUs = 0, measureStartUs, deadlineUs, ...given } = settings
  const terminalSettings = { paced: false, transactionsPerClient: 0, latencyLimitUs: 0, maxTries: 1, verboseErrors: false, rate: rateIntervalUs > 0 ? 1e6 / rateIntervalUs : 0, ...given }
  const context = new TerminalContext({
    nowUs: () => world.nowUs,
    scheduler,
    pool,
    recorder,
    workload: { ...hooks, transactions: types },
    types,
    random: { choose: Prng.fromSeed(1n), throttle: waitRandom },
    settings: terminalSettings,
    events: {
      finished: (t) => world.finished.push(t.id),
      clientAborted: (t, err) => world.aborted.push(err),
      otherError: (t, err) => world.otherErrors.push(err),
      retryableError: (t, err, tries, willRetry) => world.retryable.push({ tries, willRetry }),
      internalError: (err) => world.bugs.push(err),
      // as the run's: the connection is cancelled and destroyed
      cancelConnection: (conn, now) => { conn.broken = true; world.cancels.push({ conn, now }) }
    }
  })
  context.begin(0, measureStartUs ?? 0, deadlineUs ?? Infinity)
  world.context = context
  world.pool = pool
  world.recorder = recorder
  world.terminals = Array.from({ length: terminals }, (_, i) => new Terminal(context, i, Prng.fromSeed(BigInt(100 + i))))
  /** Start the terminals and play every event in time order; promises settle between events. */
  world.run = async ({ untilUs = Infinity } = {}) => {
    if (!world.started) for (const t of world.terminals) t.start()
    world.started = true
    while (world.events.length > 0) {
      world.events.sort((a, b) => a.atUs - b.atUs || a.seq - b.seq)
      if (world.events[0].atUs > untilUs) break
      const e = world.events.shift()
      if (e.atUs > world.nowUs) world.nowUs = e.atUs
      e.fn()
      await new Promise(setImmediate)
    }
    await new Promise(setImmediate)
  }
  return world
}
