// The results' `slowest` section (--explain-slowest): after the measured window, within the
// bound of what is read after the run, the kept slowest transactions replayed under EXPLAIN;
// skipped, with its reason, when the run stalled, was hurried or the workload keeps none.

import { replaySlowest, explainOptions } from './replay-slowest.js'

/**
 * @param {object} p
 * @param {number} p.perType --explain-slowest N; 0: no section
 * @param {any} p.outcome the run's outcome (its `slowest`, per type index)
 * @param {any} p.workload
 * @param {any} p.conn pgload's set-up connection
 * @param {number} p.serverVersionNum
 * @param {{ status: { hurried: boolean } }} p.run
 * @param {boolean} p.stalled transactions had to be cancelled
 * @param {{ within: <T>(p: Promise<T>, onLate?: () => void) => Promise<T|null> }} p.limit the after-run bound
 * @param {any} [p.tags] what the wait sampler saw of the slowest transactions (WaitSampling.slowTags())
 * @returns {Promise<object|undefined>} the section; undefined without --explain-slowest
 */
export async function slowestSection ({ perType, outcome, workload, conn, serverVersionNum, run, stalled, limit, tags = null }) {
  if (!(perType > 0)) return undefined
  const skipped = (reason) => ({ available: false, perType, reason })
  if ((!workload.replayStatements && !workload.replayTransaction) || outcome.slowest === undefined) return skipped(`the ${workload.name ?? 'workload'} workload's transactions are not replayed: only scripts' and TPC-C's are kept`)
  if (run.status.hurried) return skipped('the run was aborted by a second Ctrl-C or SIGTERM: nothing is replayed')
  if (stalled) return skipped('transactions had to be cancelled (the server stopped answering): nothing is replayed')
  let late = false
  const replaying = replaySlowest(conn, { slowest: outcome.slowest, workload, serverVersionNum, stopped: () => late, tags })
  let types
  try {
    // past the bound the connection is dropped: the server rolls the replay's transaction back
    types = await limit.within(replaying, () => { late = true; conn.destroy?.() })
  } catch (err) {
    return skipped(`the replay failed: ${err.message}`)
  }
  if (types === null) return skipped('the replay did not finish within the time allowed after the run')
  return { available: true, perType, explain: explainOptions(serverVersionNum), types }
}
