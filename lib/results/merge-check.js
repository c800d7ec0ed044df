// Whether results documents are partitions of one run: the merge refuses anything else, naming
// the first field that differs.

import { isDeepStrictEqual } from 'node:util'
import { PgloadError } from '../errors.js'

/**
 * Options that may differ between partitions of one run: where each wrote its results, its
 * command line, what it printed, which partition it was, and whether it sampled the server and
 * its host (server statistics are taken from one partition).
 */
export const PARTITION_OPTIONS = new Set([
  'out', 'resultName', 'writeFile', 'command', 'progressS', 'verboseErrors', 'serverStats', 'serverHostStats', 'waitSamplingHz',
  'shard', 'shards', 'jobs', 'thread', 'threads', 'partition'
])

/** Workload options that may differ between partitions: where each writes its --log files. */
export const PARTITION_WORKLOAD_OPTIONS = new Set(['logPrefix'])

/** Fields (paths) that must be equal in every partition, besides the options. */
const SAME_RUN_FIELDS = [
  ['tool', 'name'], ['tool', 'version'],
  ['run', 'workload'], ['run', 'label'], ['run', 'seed'], ['run', 'warmupS'], ['run', 'protocol'],
  ['run', 'scale'], ['run', 'rate'], ['run', 'transactionTypes'], ['run', 'weights'],
  ['server', 'versionNum']
]

const at = (doc, path) => path.reduce((v, k) => (v === null || v === undefined ? undefined : v[k]), doc)
const shown = (v) => {
  const text = v === undefined ? 'missing' : JSON.stringify(v)
  return text.length > 40 ? `${text.slice(0, 37)}...` : text
}

/**
 * Throw a one-line PgloadError (code RESULTS_MISMATCH) naming the field unless every document is
 * a partition of the same run as the first: same tool version, workload, seed, label, warm-up,
 * protocol, scale, rate, transaction types and weights, server version, and the same options
 * apart from PARTITION_OPTIONS.
 * @param {any[]} docs
 * @param {string[]} sources names of the documents, for the message
 */
export function checkSameRun (docs, sources) {
  const first = docs[0]
  for (let i = 1; i < docs.length; i++) {
    const field = differingField(first, docs[i])
    if (field) {
      throw new PgloadError(`cannot merge ${sources[i]} with ${sources[0]}: not partitions of one run (${field.path} differs: ${shown(field.a)} vs ${shown(field.b)})`, { code: 'RESULTS_MISMATCH' })
    }
  }
}

/**
 * @param {any} a
 * @param {any} b
 * @returns {{ path: string, a: unknown, b: unknown } | null}
 */
function differingField (a, b) {
  for (const path of SAME_RUN_FIELDS) {
    const x = at(a, path)
    const y = at(b, path)
    if (!isDeepStrictEqual(x, y)) return { path: path.join('.'), a: x, b: y }
  }
  const oa = a.run.options ?? {}
  const ob = b.run.options ?? {}
  const keys = new Set([...Object.keys(oa), ...Object.keys(ob)])
  for (const k of keys) {
    if (PARTITION_OPTIONS.has(k)) continue
    if (k === 'workloadOptions') {
      const field = differingWorkloadOption(oa[k], ob[k])
      if (field) return field
      continue
    }
    if (!isDeepStrictEqual(oa[k], ob[k])) return { path: `run.options.${k}`, a: oa[k], b: ob[k] }
  }
  return null
}

/** The first workload option that differs, apart from PARTITION_WORKLOAD_OPTIONS. */
function differingWorkloadOption (a, b) {
  if (!isPlainObject(a) || !isPlainObject(b)) return isDeepStrictEqual(a, b) ? null : { path: 'run.options.workloadOptions', a, b }
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (PARTITION_WORKLOAD_OPTIONS.has(k) || isDeepStrictEqual(a[k], b[k])) continue
    return { path: `run.options.workloadOptions.${k}`, a: a[k], b: b[k] }
  }
  return null
}

const isPlainObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v)
