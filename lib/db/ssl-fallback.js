// libpq's second attempt for sslmode allow and prefer, the same for both drivers: `allow`
// connects without SSL and, when the server turns that away, with SSL; `prefer` tries SSL first
// and, when the server has none, the handshake fails or the server turns the SSL connection away
// at authentication (pg_hba.conf), connects without it. Other modes make one attempt.

/** Errors of a server that could not be reached at all: a second attempt would only wait again. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'ENOENT'])

/**
 * Connect as the mode says: `attempt(m)` opens one connection with SSL as `m` says (for `prefer`:
 * SSL when the server answers yes to SSLRequest, else plain); the second attempt's error is
 * thrown unless it only says the server wants the other encryption, then the first one's.
 * @template T
 * @param {import('./ssl-negotiation.js').SslMode} mode
 * @param {(mode: import('./ssl-negotiation.js').SslMode) => Promise<T>} attempt
 * @returns {Promise<T>}
 */
export async function connectWithSslFallback (mode, attempt) {
  if (mode !== 'allow' && mode !== 'prefer') return attempt(mode)
  const [first, second] = mode === 'allow' ? ['disable', 'require'] : ['prefer', 'disable']
  let firstError
  try {
    return await attempt(first)
  } catch (err) {
    if (!turnedAway(err)) throw err
    firstError = err
  }
  try {
    return await attempt(second)
  } catch (err) {
    throw encryptionRefusal(err) ? firstError : err
  }
}

/** The server was reached and did not take the connection (as opposed to unreachable or too slow). */
function turnedAway (err) {
  return !UNREACHABLE.has(err?.code) && !/timeout/i.test(String(err?.message))
}

/**
 * Whether a start-up error is pg_hba.conf refusing a connection for its encryption (libpq's
 * "no encryption" or "SSL encryption"), or a server without SSL.
 * @param {any} err
 * @returns {boolean}
 */
export function encryptionRefusal (err) {
  const message = String(err?.message)
  if (err?.code === '28000' && /no encryption|SSL encryption|GSS encryption/.test(message)) return true
  return /does not support SSL/i.test(message)
}
