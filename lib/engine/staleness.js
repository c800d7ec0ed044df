// --staleness, measured not estimated: after each commit of a type on the run's own server (a
// writer) the terminal stamps its row of pgload_staleness with a sequence number that only grows
// (one upsert, on the same connection, counted in that transaction's latency); before each
// transaction of a routed type (a reader) it reads its row back on the routed server. A read that
// does not see the terminal's last acknowledged stamp is a read-your-writes violation; how far
// behind it was is counted in stamps and in time since the first stamp it missed was acknowledged.

import { createHistogram, recordUs, encodeHistogram, latencySummaryMs } from '../metrics/histogram.js'
import { OK } from './terminal-errors.js'

/** The table pgload owns for the stamps; only ever made by pgload, of exactly this shape. */
export const STALENESS_TABLE = 'pgload_staleness'
// acknowledgement times kept per terminal: a read further behind than this many stamps gets the
// oldest kept, a lower bound of its time behind
const RING = 64

export class Staleness {
  /**
   * @param {object} p
   * @param {readonly number[]} p.typeTargets per type: 0 the run's own server (writes), else routed (reads)
   * @param {number} p.terminals terminal ids are 0 .. terminals - 1
   * @param {() => number} p.nowUs
   * @param {number} [p.baseSeq] the run's first sequence number: above any earlier run's (wall-clock
   *   microseconds at the start), so rows left by earlier runs never pass for this run's stamps
   */
  constructor ({ typeTargets, terminals, nowUs, baseSeq = Date.now() * 1000 }) {
    this.writes = typeTargets.map((t) => t === 0)
    this.reads = typeTargets.map((t) => t !== 0)
    this.nowUs = nowUs
    this.baseSeq = baseSeq
    // per terminal: stamps acknowledged (0: none yet), and the ring of their acknowledgement times
    this.acked = new Float64Array(terminals)
    this.ackedUs = new Float64Array(terminals * RING)
    this.stamps = 0
    this.stampErrors = 0
    this.checked = 0
    this.unchecked = 0
    this.readErrors = 0
    this.violations = 0
    this.behindUs = createHistogram()
    this.behindStamps = createHistogram()
  }

  /**
   * A writer's transaction committed: stamp on its connection, then end it (whatever the
   * stamp's fate: a stamp that failed is counted, the transaction had committed).
   * An opt-in measurement: its closures per transaction are accepted.
   * @param {import('./terminal.js').Terminal} terminal
   */
  stamp (terminal) {
    const conn = terminal.conn
    const then = () => {
      try {
        if (terminal.cancelled) terminal.cancelledEnded()
        else terminal.endTransaction(OK)
      } catch (err) {
        terminal.crash(err)
      }
    }
    const id = terminal.terminalId
    const n = this.acked[id] + 1
    const seq = this.baseSeq + n
    conn.simpleQuery(`insert into ${STALENESS_TABLE} as s values (${id}, ${seq}, now()) on conflict (id) do update set seq = excluded.seq, at = excluded.at`).then(() => {
      this.acked[id] = n
      this.ackedUs[id * RING + n % RING] = this.nowUs()
      this.stamps++
      then()
    }, () => {
      this.stampErrors++
      then()
    })
  }

  /**
   * Before a reader's transaction: read the terminal's stamp on the routed server, then run it.
   * @param {import('./terminal.js').Terminal} terminal
   * @param {any} conn the routed connection it got
   */
  check (terminal, conn) {
    const then = () => {
      try {
        terminal.runOn(conn)
      } catch (err) {
        terminal.crash(err)
      }
    }
    const id = terminal.terminalId
    const known = this.acked[id]
    conn.simpleQuery(`select seq from ${STALENESS_TABLE} where id = ${id}`).then((r) => {
      const nowUs = this.nowUs()
      if (nowUs >= terminal.context.measureStartUs) this._seen(id, known, r.rows.length ? Number(r.rows[0][0]) - this.baseSeq : 0, nowUs)
      then()
    }, () => {
      this.readErrors++
      then()
    })
  }

  _seen (id, known, seen, nowUs) {
    if (known === 0) { this.unchecked++; return } // nothing of this client's to see yet
    this.checked++
    const behind = known - Math.max(0, seen)
    if (behind <= 0) return
    this.violations++
    const firstMissed = Math.max(known - behind + 1, known - RING + 1)
    recordUs(this.behindUs, nowUs - this.ackedUs[id * RING + firstMissed % RING])
    recordUs(this.behindStamps, behind)
  }

  /** The results' `staleness` section. */
  section () {
    const stamps = latencySummaryMs(this.behindStamps)
    return {
      stamps: this.stamps,
      stampErrors: this.stampErrors,
      reads: this.checked,
      readErrors: this.readErrors,
      unchecked: this.unchecked,
      violations: this.violations,
      behindMs: latencySummaryMs(this.behindUs),
      // latencySummaryMs reads microseconds: stamps were recorded as whole numbers
      behindStamps: { p50: thousand(stamps.p50), p99: thousand(stamps.p99), max: thousand(stamps.max) },
      histogram: encodeHistogram(this.behindUs)
    }
  }
}

const thousand = (v) => v === null ? null : Math.round(v * 1000)
