// The acknowledged commits a workload kept (lib/script/commit-log.js), handed from the run to the
// RPO check beside its results document without becoming part of it (they are not results).

/** @type {WeakMap<object, import('../script/commit-log.js').CommitLog>} */
const kept = new WeakMap()

/**
 * @param {object} results the run's results document
 * @param {import('../script/commit-log.js').CommitLog|null|undefined} log
 */
export function keepCommits (results, log) {
  if (log) kept.set(results, log)
}

/**
 * @param {object} results
 * @returns {import('../script/commit-log.js').CommitLog|null}
 */
export function keptCommits (results) {
  return kept.get(results) ?? null
}
