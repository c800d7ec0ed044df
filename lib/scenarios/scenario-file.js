// A scenario file (`pgload run --scenarios FILE`): YAML or JSON read into the run's duration,
// warm-up, seed and server, and one entry per scenario whose keys are `pgload run`'s long option
// names plus its own window (`start`, `duration`) and `tags`. Only the shape is checked here; each
// scenario's values are checked as a run plan's (scenario-plans.js).

import { readFile } from 'node:fs/promises'
import yaml from 'js-yaml'
import { PgloadError } from '../errors.js'
import { parseDurationS } from '../options/parse.js'
import { shownValue } from '../options/shown.js'

/** The keys of the file's top level. */
const TOP_KEYS = new Set(['duration', 'warmup', 'seed', 'url', 'scenarios'])

/** `pgload run`'s long options a scenario takes (a workload's own run options come on top). */
export const SCENARIO_RUN_KEYS = new Set(['workload', 'clients', 'connections', 'transactions', 'rate', 'latency-limit',
  'stages', 'max-queue', 'clients-stages', 'ramp', 'think-time', 'protocol', 'connect', 'driver', 'max-tries', 'grace',
  'reconnect-window', 'transaction-timeout', 'url', 'builtin', 'file', 'define', 'scale', 'vacuum', 'jobs'])
/** A scenario's own keys: its window within the run and its tags. */
const WINDOW_KEYS = new Set(['start', 'duration', 'tags'])

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/
/** Longest run a scenario file may ask for: a week, as far as any load test goes. */
const MAX_RUN_S = 7 * 24 * 3600

/**
 * @typedef {object} ScenarioSpec
 * @property {string} name
 * @property {number} startS start within the run's measured window
 * @property {number} durationS how long it runs from its start
 * @property {Record<string, string>} tags
 * @property {Record<string, any>} options its `pgload run` options, by long name
 */

/**
 * @typedef {object} ScenarioFile
 * @property {string} file
 * @property {number} durationS the run's measured duration
 * @property {number} warmupS
 * @property {string|number|undefined} seed
 * @property {string|undefined} url
 * @property {ScenarioSpec[]} scenarios in the file's order
 */

const bad = (message, hint) => new PgloadError(message, { code: 'BAD_SCENARIOS', hint })

/**
 * Read and check a scenario file.
 * @param {string} file
 * @param {{ workloadKeys?: Iterable<string> }} [opts] workloadKeys: the workloads' own run options (warehouses...)
 * @returns {Promise<ScenarioFile>}
 */
export async function readScenarioFile (file, opts) {
  let text
  try {
    text = await readFile(file, 'utf8')
  } catch (err) {
    throw bad(`--scenarios: cannot read ${file}: ${err.code ?? err.message}`)
  }
  return parseScenarioText(text, file, opts)
}

/**
 * Parse a scenario file's text. JSON is read as YAML (it is YAML's subset), so a name given twice
 * is refused in both instead of the last one silently winning.
 * @param {string} text
 * @param {string} file the name for messages
 * @param {{ workloadKeys?: Iterable<string> }} [opts]
 * @returns {ScenarioFile}
 */
export function parseScenarioText (text, file, { workloadKeys = [] } = {}) {
  let doc
  try {
    doc = yaml.load(text, { schema: yaml.CORE_SCHEMA, filename: file })
  } catch (err) {
    const dup = /duplicated mapping key/.test(err.reason ?? '')
    const where = err.mark ? ` (line ${err.mark.line + 1})` : ''
    throw bad(`${file}: ${dup ? 'a name or key is given twice' : err.reason ?? err.message}${where}`)
  }
  if (!isMap(doc)) throw bad(`${file}: expected a map with duration and scenarios, got ${shownValue(doc)}`)
  for (const key of Object.keys(doc)) {
    if (!TOP_KEYS.has(key)) throw bad(`${file}: unknown key ${JSON.stringify(key)}`, `the top level takes ${[...TOP_KEYS].join(', ')}`)
  }
  if (doc.duration === undefined || doc.duration === null) throw bad(`${file}: duration is missing: the run's measured duration, e.g. duration: 60s`)
  const durationS = parseDurationS(String(doc.duration), `${file}: duration`, { max: MAX_RUN_S })
  if (durationS <= 0) throw bad(`${file}: duration must be more than 0, got ${shownValue(doc.duration)}`)
  const warmupS = doc.warmup === undefined ? 0 : parseDurationS(String(doc.warmup), `${file}: warmup`, { max: MAX_RUN_S })
  if (doc.url !== undefined && typeof doc.url !== 'string') throw bad(`${file}: url must be a string`)
  if (!isMap(doc.scenarios) || Object.keys(doc.scenarios).length === 0) throw bad(`${file}: scenarios must be a map of at least one scenario by name`)
  const allowed = new Set([...SCENARIO_RUN_KEYS, ...workloadKeys])
  const scenarios = Object.entries(doc.scenarios).map(([name, entry]) => scenarioSpec(name, entry, { file, durationS, allowed }))
  return { file, durationS, warmupS, seed: doc.seed ?? undefined, url: doc.url, scenarios }
}

/** One scenario's entry: its name, window, tags and run options, checked for shape. */
function scenarioSpec (name, entry, { file, durationS, allowed }) {
  const at = `${file}: scenario ${name}`
  if (!NAME.test(name)) throw bad(`${file}: scenario name ${JSON.stringify(name)} is not an identifier (letters, digits, _; not starting with a digit)`)
  if (!isMap(entry)) throw bad(`${at}: expected a map of run options, got ${shownValue(entry)}`)
  const options = {}
  for (const [key, value] of Object.entries(entry)) {
    if (WINDOW_KEYS.has(key)) continue
    if (!allowed.has(key)) throw bad(`${at}: unknown key ${JSON.stringify(key)}`, 'a scenario takes pgload run\'s long option names (workload, clients, rate, stages...) plus start, duration and tags')
    options[key] = value
  }
  const startS = entry.start === undefined ? 0 : parseDurationS(String(entry.start), `${at}: start`, { max: MAX_RUN_S })
  if (startS >= durationS) throw bad(`${at}: start ${shownValue(entry.start)} is at or after the run's end (duration ${durationS} s)`)
  const ownS = entry.duration === undefined ? durationS - startS : parseDurationS(String(entry.duration), `${at}: duration`, { max: MAX_RUN_S })
  if (ownS <= 0) throw bad(`${at}: duration must be more than 0, got ${shownValue(entry.duration)}`)
  if (startS + ownS > durationS + 1e-9) throw bad(`${at}: start ${startS} s plus duration ${ownS} s runs past the run's end (duration ${durationS} s)`)
  return { name, startS, durationS: ownS, tags: scenarioTags(entry.tags, at), options }
}

function scenarioTags (tags, at) {
  if (tags === undefined || tags === null) return {}
  if (!isMap(tags)) throw bad(`${at}: tags must be a map of names to values`)
  const out = {}
  for (const [k, v] of Object.entries(tags)) {
    if (v !== null && typeof v === 'object') throw bad(`${at}: tags.${k} must be a plain value, got ${shownValue(v)}`)
    out[k] = String(v)
  }
  return out
}

function isMap (v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}
