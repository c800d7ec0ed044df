// --metrics-push URL and --metrics-push-header 'Name: value', checked before anything connects.
// The URL may carry user:password and a header a token: the record keeps neither.

import { PgloadError } from '../errors.js'
import { redact } from '../server/target/resolve-target.js'
import { shownValue } from '../options/shown.js'

/**
 * @typedef {object} MetricsPush
 * @property {string} url the receiver's http(s) URL, as given (user:password@ included)
 * @property {[string, string][]} headers extra request headers, name and value
 */

// the request's own headers: a header given for them would make the body unreadable
const RESERVED = new Set(['content-type', 'content-encoding', 'content-length', 'x-prometheus-remote-write-version', 'host', 'transfer-encoding', 'connection'])
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

const bad = (message, hint) => new PgloadError(message, { code: 'BAD_OPTION', hint })

/**
 * The push target from the option values (or from a resolved plan's, given again); undefined
 * without --metrics-push.
 * @param {unknown} given --metrics-push: a URL, or a plan's MetricsPush
 * @param {unknown} headers --metrics-push-header: 'Name: value', one or a list
 * @returns {MetricsPush|undefined}
 */
export function parseMetricsPush (given, headers) {
  if (given && typeof given === 'object' && !Array.isArray(given)) {
    return parseMetricsPush(/** @type {any} */ (given).url, /** @type {any} */ (given).headers?.map((h) => Array.isArray(h) ? `${h[0]}: ${h[1]}` : h))
  }
  const headerList = headers === undefined || headers === null ? [] : [headers].flat()
  if (given === undefined || given === null) {
    if (headerList.length > 0) throw bad('--metrics-push-header goes with --metrics-push: it is sent with each push')
    return undefined
  }
  return { url: pushUrl(given), headers: headerList.map(pushHeader) }
}

function pushUrl (given) {
  const example = 'e.g. http://127.0.0.1:9090/api/v1/write'
  if (typeof given !== 'string' || given.trim() === '') throw bad(`--metrics-push needs the URL of a Prometheus remote-write receiver (${example}), got ${shownValue(given)}`)
  let url
  try {
    url = new URL(given.trim())
  } catch {
    throw bad(`--metrics-push needs the URL of a Prometheus remote-write receiver (${example}), got ${shownValue(redact(given))}`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw bad(`--metrics-push: the URL must be http:// or https://, got ${url.protocol}//`, `a Prometheus receiver: ${example}`)
  if (!url.hostname) throw bad(`--metrics-push: the URL names no host, got ${shownValue(redact(given))}`)
  try {
    decodeURIComponent(url.username)
    decodeURIComponent(url.password)
  } catch {
    throw bad('--metrics-push: the user or password in the URL is not valid percent-encoding', 'write % as %25')
  }
  return given.trim()
}

/** @returns {[string, string]} */
function pushHeader (text) {
  if (typeof text !== 'string') throw bad(`--metrics-push-header needs 'Name: value', got ${shownValue(text)}`)
  const colon = text.indexOf(':')
  const name = colon > 0 ? text.slice(0, colon).trim() : ''
  // the value is never shown: it is usually a token
  if (!TOKEN.test(name)) throw bad(`--metrics-push-header needs 'Name: value' (e.g. 'Authorization: Bearer TOKEN'), got one ${colon > 0 ? `whose name ${shownValue(name)} is not a header name` : 'without a colon'}`)
  const value = text.slice(colon + 1).trim()
  if (/[\r\n\0]/.test(value)) throw bad(`--metrics-push-header ${name}: the value must be one line`)
  if (RESERVED.has(name.toLowerCase())) throw bad(`--metrics-push-header ${name}: pgload sets that header itself`)
  return [name, value]
}

/**
 * The push target as a results document records it: the URL without credentials or query, the
 * headers' names only.
 * @param {MetricsPush} push
 * @returns {{ url: string, headers: string[] }}
 */
export function recordedMetricsPush (push) {
  const url = new URL(push.url)
  return { url: `${url.origin}${url.pathname}`, headers: push.headers.map(([name]) => name) }
}
