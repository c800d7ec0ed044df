// Errors between threads: structured cloning keeps an Error's message and stack but not the
// fields the presenters read (code, SQLSTATE details, command and script indices).

/**
 * @param {any} err
 * @returns {object} a plain object with the error's own fields, message, name and stack
 */
export function sendableError (err) {
  if (!err || typeof err !== 'object') return { message: String(err) }
  const out = {}
  for (const [k, v] of Object.entries(err)) if (isSendable(v)) out[k] = v
  out.message = String(err.message ?? '')
  out.name = err.name ?? 'Error'
  if (typeof err.stack === 'string') out.stack = err.stack
  return out
}

/**
 * @param {any} sent from sendableError
 * @returns {Error}
 */
export function restoreError (sent) {
  const err = new Error(sent?.message ?? '')
  return Object.assign(err, sent)
}

const isSendable = (v) => v === null || ['string', 'number', 'boolean', 'bigint', 'undefined'].includes(typeof v)
