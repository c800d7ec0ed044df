// The plan's record: where the results go (the file, the results database), how the run is named
// and judged (label, thresholds, the command line without its password), and the pooler's admin
// console to sample; each checked before any server is reached.

import { PgloadError } from '../errors.js'
import { parseOutputPath } from '../options/parse.js'
import { parseConnectionString, redact } from '../server/target/resolve-target.js'
import { DEFAULTS } from './defaults.js'
import { booleanOption, runLabel, runThresholds } from './checks.js'
import { shownValue } from '../options/shown.js'

const bad = (message) => new PgloadError(message, { code: 'BAD_OPTION' })

/**
 * Where the results go and how the run is named, for the record.
 * @param {(name: string) => any} opt the given value of an input key
 */
export async function record (opt) {
  const url = opt('url')
  if (url !== undefined && (typeof url !== 'string' || url.trim() === '')) throw bad(`--url needs a connection string, got ${shownValue(url)}`)
  const command = opt('command')
  return {
    url,
    out: parseOutputPath(opt('out'), '--out'),
    label: runLabel(opt('label')),
    thresholds: await runThresholds(opt('thresholds')),
    command: command === undefined ? undefined : redact(String(command)),
    poolerAdmin: poolerAdmin(opt('poolerAdmin')),
    ...resultsStore(opt)
  }
}

/** --pooler-admin: a connection string (malformed: said before the run) or off. */
function poolerAdmin (value) {
  if (value === undefined || value === 'off') return value
  if (typeof value !== 'string' || value.trim() === '') throw bad(`--pooler-admin needs a connection string or off, got ${shownValue(value)}`)
  parseConnectionString(value, '--pooler-admin')
  return value
}

/**
 * --store and --results-url: where the run is stored after its file is written.
 * @param {(name: string) => any} opt the given value of an input key
 * @returns {{ store: boolean, resultsUrl: string|undefined }}
 */
export function resultsStore (opt) {
  const store = booleanOption(opt('store'), '--store', DEFAULTS.store)
  const resultsUrl = opt('resultsUrl')
  if (resultsUrl !== undefined && (typeof resultsUrl !== 'string' || resultsUrl.trim() === '')) throw bad(`--results-url needs a connection string, got ${shownValue(resultsUrl)}`)
  if (resultsUrl !== undefined && !store) throw bad('--results-url goes with --store: it says where the run is stored')
  // malformed: said before the run, not after it
  if (resultsUrl !== undefined) parseConnectionString(resultsUrl, '--results-url')
  return { store, resultsUrl }
}
