// The outcome counters of one transaction type, over a run or over one stage, and the sums its
// exact latency mean and standard deviation come from.

/** Counters of one transaction type's outcomes. */
export class OutcomeCounts {
  constructor () {
    /** completed: committed, or expected rollbacks */
    this.count = 0
    this.failed = 0
    this.skipped = 0
    this.rollbacks = 0
    this.retries = 0
    this.retried = 0
    this.late = 0
    /** cancelled after the end-of-run grace (or by Ctrl-C twice), before COMMIT was sent */
    this.unfinished = 0
    /** the connection was lost (or cancelled) after COMMIT was sent, before any reply */
    this.outcomeUnknown = 0
    this.sumUs = 0
    this.sumSqUs = 0
    /** @type {Map<string, number>} failures by SQLSTATE (or pgload code) */
    this.errors = new Map()
  }
}
