// Runs what a sweep document says is still to run: each size loaded once, ascending, then its
// runs in the document's order, each after a CHECKPOINT; the document is rewritten after every
// run and every load, so an interruption or a crash keeps everything finished.

import { PgloadError } from '../errors.js'
import { recordRun, writeSweepDocument } from './document.js'
import { cellKey, cellSize, cellText } from './axes.js'
import { timeLeftS } from './estimate.js'

/**
 * @typedef {object} SweepHooks what the runner needs from the world (the command line gives the real ones)
 * @property {(run: Record<string, any>) => Promise<object>} planFor the run plan of a run entry
 * @property {(plan: object, hooks: object) => Promise<{ results: any, file: string|null, exitCode: number }>} runBenchmark
 * @property {(size: number, opts: { signal: AbortSignal }) => Promise<any>} loadSize load the workload's tables at this size (init --force, own tables only)
 * @property {(plan: object) => Promise<{ dbSizeBytes: number|null, tablesSizeBytes?: number|null, checkpointed: boolean, checkpointRefused?: string, server?: object }>} prepareRun
 *   CHECKPOINT and the database's size, just before a run
 * @property {(name: string, info: object) => void} [onEvent] load, loaded, checkpoint-refused, start, done
 */

export class SweepRunner {
  /**
   * @param {{ dir: string, doc: Record<string, any>, plannedS: number|null, log?: any, env?: Record<string, string|undefined>,
   *   now?: () => Date, clockS?: () => number } & SweepHooks} opts plannedS: warm-up plus duration of one run (null: by count)
   */
  constructor (opts) {
    this.opts = { onEvent: () => {}, now: () => new Date(), clockS: () => performance.now() / 1000, ...opts }
    this.doc = opts.doc
    this.interrupted = false
    this.currentRun = null
    /** @type {'load'|'run'|null} what the sweep is doing now */
    this.phase = null
    this.loading = new AbortController()
    let abandon
    /** rejects at a second interrupt: what is under way (a connect, a load) is not waited for */
    this.abandoned = new Promise((resolve, reject) => { abandon = reject })
    this.abandoned.catch(() => {})
    this.abandon = abandon
  }

  /**
   * Stop: the current run finishes within its grace and is recorded (hard: it is aborted at
   * once, still recorded), and no other run starts.
   * @param {boolean} [hard]
   */
  interrupt (hard = false) {
    this.interrupted = true
    this.loading.abort()
    if (this.currentRun) {
      if (hard) this.currentRun.abort('interrupted')
      else this.currentRun.stop('interrupted')
    } else if (hard) {
      this.abandon(new PgloadError('interrupted', { code: 'INTERRUPTED', exitCode: 130 }))
    }
  }

  /**
   * Run every run that is not done yet (pending, failed or interrupted ones).
   * @returns {Promise<{ interrupted: boolean, ran: number }>}
   * @throws {PgloadError} when a run could not be run at all (the document records it as failed)
   */
  async run () {
    const left = this.doc.runs.filter((r) => r.status !== 'done').sort((a, b) => a.order - b.order)
    let ran = 0
    for (const [size, runs] of bySize(left)) {
      if (this.interrupted) break
      if (size !== null) await this.#load(size, left)
      for (const run of runs) {
        if (this.interrupted) break
        if (await this.#runOne(run, left)) ran++
      }
    }
    return { interrupted: this.interrupted, ran }
  }

  async #load (size, left) {
    const o = this.opts
    const axis = 'warehouses' in this.doc.axes ? 'warehouses' : 'scale'
    o.onEvent('load', { axis, size, runs: left.filter((r) => cellSize(r.cell) === size).length })
    const t0 = o.clockS()
    this.phase = 'load'
    try {
      await this.#orAbandon(o.loadSize(size, { signal: this.loading.signal }))
    } catch (err) {
      if (this.interrupted) return
      throw err
    } finally {
      this.phase = null
    }
    const seconds = Math.round((o.clockS() - t0) * 10) / 10
    this.doc.loads.push({ [axis]: size, at: o.now().toISOString(), seconds })
    await writeSweepDocument(o.dir, this.doc)
    o.onEvent('loaded', { axis, size, seconds })
  }

  /** One run: prepare, run, record. Returns whether it ran (false: interrupted before it began). */
  async #runOne (run, left) {
    const o = this.opts
    const plan = await o.planFor(run)
    const still = left.filter((r) => r.status !== 'done' && r.order >= run.order)
    o.onEvent('start', {
      run,
      text: cellText(run.cell),
      position: run.order + 1,
      total: this.doc.runs.length,
      leftS: timeLeftS(this.doc.runs, still, o.plannedS, cellKey),
      loadsLeft: [...new Set(still.map((r) => cellSize(r.cell)).filter((s) => s !== null && s !== cellSize(run.cell)))]
    })
    const t0 = o.clockS()
    let prepared
    let outcome
    this.phase = 'run'
    try {
      prepared = await this.#orAbandon(o.prepareRun(plan))
      if (prepared.server) this.doc.server = prepared.server
      if (prepared.checkpointRefused) o.onEvent('checkpoint-refused', { message: prepared.checkpointRefused })
      if (this.interrupted) return false
      outcome = await this.#orAbandon(o.runBenchmark(plan, {
        log: o.log,
        env: o.env,
        onRun: (r) => {
          this.currentRun = r
          if (this.interrupted) r.stop('interrupted')
        }
      }))
    } catch (err) {
      if (err?.code === 'INTERRUPTED' && this.interrupted) return false
      await this.#record(run, { status: 'failed', error: firstLine(err), attempts: (run.attempts ?? 0) + 1 })
      throw new PgloadError(`run ${run.order + 1} of the sweep (${cellText(run.cell) || 'the only cell'}, repeat ${run.repeat}) failed: ${firstLine(err)}`, {
        code: err?.code ?? 'SWEEP_RUN_FAILED', exitCode: err?.exitCode ?? 1, hint: err?.hint, cause: err
      })
    } finally {
      this.currentRun = null
      this.phase = null
    }
    const wallS = Math.round((o.clockS() - t0) * 10) / 10
    await this.#record(run, { ...runFields(outcome), wallS, attempts: (run.attempts ?? 0) + 1, tablesSizeBytes: prepared.tablesSizeBytes ?? null, dbSizeBytes: prepared.dbSizeBytes, checkpointed: prepared.checkpointed })
    o.onEvent('done', { run, text: cellText(run.cell), position: run.order + 1, total: this.doc.runs.length, results: outcome.results })
    return true
  }

  async #record (run, fields) {
    recordRun(this.doc, run.order, fields, this.opts.now())
    await writeSweepDocument(this.opts.dir, this.doc)
  }

  #orAbandon (promise) {
    return Promise.race([promise, this.abandoned])
  }
}

/**
 * A run entry's outcome fields from what runBenchmark returned.
 * @param {{ results: any, exitCode: number }} outcome
 * @returns {Record<string, any>}
 */
export function runFields ({ results, exitCode }) {
  const s = results.summary
  const r = results.run
  const aborted = exitCode === 2
  return {
    status: r.interrupted ? 'interrupted' : aborted ? 'failed' : 'done',
    error: aborted ? `the run was aborted (${r.abortReason ?? 'a client aborted'}); its results cover what was measured` : null,
    startTime: r.startTime ?? null,
    durationS: r.durationS ?? null,
    tps: s.tps ?? null,
    p50Ms: s.latencyMs?.p50 ?? null,
    p99Ms: s.latencyMs?.p99 ?? null,
    maxMs: s.latencyMs?.max ?? null,
    transactions: s.transactions ?? null,
    failedTransactions: s.failed ?? null,
    terminals: r.terminals ?? r.clients ?? null,
    connections: r.connections ?? null,
    ...chbenchFields(results)
  }
}

/**
 * What a CH-benCHmark run adds to its entry: TPC-C's tpmC and New-Order p90 and the analytic
 * streams' queries per hour, the figures its sweep draws against the streams. Nothing for
 * another workload's run, whose entries stay as they were.
 * @param {any} results
 * @returns {{ tpmC?: number|null, newOrderP90Ms?: number|null, queriesPerHour?: number|null }}
 */
export function chbenchFields (results) {
  if (!results.chbench) return {}
  return {
    tpmC: results.tpcc?.tpmC ?? null,
    newOrderP90Ms: results.tpcc?.responseTime?.['new-order']?.p90Ms ?? null,
    queriesPerHour: results.chbench.queriesPerHour ?? null
  }
}

/** The runs grouped by size, in the order the sizes first come (ascending: the document's order). */
function bySize (runs) {
  const groups = new Map()
  for (const run of runs) {
    const size = cellSize(run.cell)
    if (!groups.has(size)) groups.set(size, [])
    groups.get(size).push(run)
  }
  return groups
}

const firstLine = (err) => String(err?.message ?? err).split('\n')[0]
