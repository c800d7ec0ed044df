// Wait sampling of one run (--wait-sampling): the run's activity slots, the sampler on its own
// connection started and stopped with the measured window, and the results' `waits` section.

import { ActivitySlots } from '../engine/activity-slots.js'
import { openLeanConnection } from '../db/lean-connection.js'
import { WaitSampler } from './wait-sampler.js'
import { waitsSection } from './waits-section.js'

/** What the sampler's own connection is called: it is never among the pids it reads. */
export const WAITS_APPLICATION_NAME = 'pgload-waits'

/**
 * Wait sampling for a run, or null with --wait-sampling off. Never throws: a sampler that cannot
 * start leaves the run as it is and the results say why in one line.
 * @param {object} p
 * @param {number} p.hz samples per second; 0: off
 * @param {number} p.jobs worker threads
 * @param {{ connections: number, range: { count: number }, intervalUs: number, slowest?: number }} p.settings the run's engine settings
 * @param {{ transactions: { name: string }[], statementNames?: (string|null)[][] }} p.workload
 * @param {import('../db/connection.js').Target} p.target the server
 * @param {import('pino').Logger} p.log
 * @param {(target: any, opts: object) => Promise<any>} [p.open] opens the sampler's connection: the
 *   lean one, whose reply parsing costs the least client CPU per read
 * @returns {Promise<WaitSampling|null>}
 */
export async function openWaitSampling ({ hz, jobs, settings, workload, target, log, open = openLeanConnection }) {
  if (!(hz > 0)) return null
  // one slot per connection that can be open at once (pgbench -C: one per terminal); worker
  // threads each take a range of them, as many as their connections or terminals
  const activity = jobs > 1
    ? new ActivitySlots(settings.connections + settings.range.count, { shared: true })
    : new ActivitySlots(Math.max(settings.connections, settings.range.count))
  // unnamed statements: a named one would meet its twin on another server connection behind a pooler
  const openConnection = () => open(target, { applicationName: WAITS_APPLICATION_NAME, protocol: 'extended' })
  const sampler = new WaitSampler({ openConnection, activity, hz, typeCount: workload.transactions.length, intervalMs: settings.intervalUs / 1000, slowest: settings.slowest ?? 0 })
  try {
    await sampler.start()
  } catch (err) {
    sampler.abandon()
    log.warn({ err: err.message }, 'wait events are not sampled')
    return new WaitSampling(null, null, { reason: `the sampler could not start: ${err.message}` })
  }
  return new WaitSampling(activity, sampler, { workload })
}

export class WaitSampling {
  /**
   * @param {ActivitySlots|null} activity
   * @param {WaitSampler|null} sampler
   * @param {{ reason?: string, workload?: any }} opts
   */
  constructor (activity, sampler, { reason, workload }) {
    /** the run's activity slots (its runtime's `activity`), or undefined when nothing samples */
    this.activity = activity ?? undefined
    this._sampler = sampler
    this._reason = reason ?? null
    this._workload = workload ?? null
    /** @type {{ tally: import('./wait-tally.js').WaitTally, error: Error|null }|null} */
    this._counts = null
    /** sampled sessions by wait class per interval, as they come (the live view reads them), or null */
    this.classes = sampler?.classes ?? null
  }

  /**
   * Sample the run's measured window.
   * @param {import('../engine/run-handle.js').RunHandle} run
   */
  follow (run) {
    const s = this._sampler
    if (s === null) return
    run.on('measuring', () => s.begin())
    const stop = () => { s.stop().catch(() => {}) }
    run.on('stopping', stop)
    run.on('finished', stop)
  }

  /**
   * After the run: the sampler's last read and its close, under the bound of what is read after
   * the run (lib/engine/after-run.js); past it, or hurried, the sampler is abandoned and its
   * counts so far make the section.
   * @param {{ within: <T>(p: Promise<T>, onLate?: () => void) => Promise<T|null> }} [limit] none: unbounded
   */
  async finish (limit) {
    const s = this._sampler
    if (s === null || this._counts !== null) return
    const finishing = s.finish()
    this._counts = (limit ? await limit.within(finishing, () => s.abandon()) : await finishing) ?? s.counted()
  }

  /**
   * What the sampler saw of each of the slowest transactions (--explain-slowest), once finished:
   * `find(slot, seq)` and the time one sample stands for; null when nothing was sampled.
   * @returns {{ find: (slot: number, seq: number) => import('./slow-tags.js').TaggedTransaction|null, intervalMs: number }|null}
   */
  slowTags () {
    const s = this._sampler
    if (s === null || s.slowTags === null || this._counts === null || !(s.ticks.done > 0)) return null
    return { find: (slot, seq) => s.slowTags.find(slot, seq), intervalMs: s.windowMs / s.ticks.done }
  }

  /**
   * The results' `waits` section, added to the document (the sampler finished first when it was not).
   * @param {any} results the results document, with its transactions
   */
  async addTo (results) {
    const s = this._sampler
    if (s === null) { results.waits = { available: false, reason: this._reason }; return }
    await this.finish()
    this._sampler = null
    const { tally, error } = this._counts
    const section = waitsSection(tally, {
      typeNames: this._workload.transactions.map((t) => t.name),
      statementNames: this._workload.statementNames,
      transactions: results.transactions,
      hz: s.hz,
      ticks: s.ticks,
      windowMs: s.windowMs,
      pgWaitSampling: s.pgWaitSampling,
      series: s.classes?.series(results.intervals ?? []) ?? []
    })
    const hiddenAll = section.samples.hidden > 0 && section.samples.hidden === section.samples.total
    if (hiddenAll) results.waits = { available: false, reason: 'the server showed no wait events of the run\'s backends (state NULL: a role without pg_read_all_stats)' }
    else if (s.unmatched) results.waits = { available: false, reason: 'pg_stat_activity had no backend with the pids the server gave pgload\'s connections: a pooler (PgBouncer) between them hands out its own' }
    else if (s.ticks.done === 0 && error) results.waits = { available: false, reason: `pg_stat_activity could not be read: ${error.message}` }
    else results.waits = { available: true, ...section, ...(error ? { note: `${s.ticks.failed} reads failed: ${error.message}` } : {}) }
  }

  /** The run ended early (an error): stop sampling, write nothing. */
  abandon () {
    this._sampler?.abandon()
    this._sampler = null
  }
}
