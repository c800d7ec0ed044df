// The client side of SCRAM-SHA-256 (RFC 5802, RFC 7677) as PostgreSQL speaks it: no channel
// binding (the GS2 header says so), the user name left to the startup message ("n=*").

import { createHash, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto'

export const SCRAM_SHA_256 = 'SCRAM-SHA-256'
const MAX_ITERATIONS = 1_000_000 // a server asking for more is refused rather than waited on

/**
 * A password prepared as PostgreSQL's server and libpq do (the parts of SASLprep, RFC 4013, that
 * change bytes): non-ASCII spaces to a space, "commonly mapped to nothing" removed, then NFKC.
 * @param {string} password
 */
export function saslPrep (password) {
  // eslint-disable-next-line no-misleading-character-class -- RFC 3454 B.1 lists joiners and selectors on purpose
  const nothing = /[\u00AD\u034F\u1806\u180B\u180C\u180D\u200C\u200D\u2060\uFE00-\uFE0F\uFEFF]/g
  return password.replace(/[\u00A0\u1680\u2000-\u200B\u202F\u205F\u3000]/g, ' ').replace(nothing, '').normalize('NFKC')
}

const hmac = (key, text) => createHmac('sha256', key).update(text).digest()

/** One SCRAM-SHA-256 exchange. */
export class ScramClient {
  /**
   * @param {string} password
   * @param {{ nonce?: string, user?: string }} [opts] the client nonce (random by default) and
   *   user name ('*': PostgreSQL takes the one of the startup message); tests give both
   */
  constructor (password, { nonce = randomBytes(18).toString('base64'), user = '*' } = {}) {
    this.password = password
    this.nonce = nonce
    this.bare = `n=${user},r=${nonce}`
    /** @type {Buffer|null} the server signature the final message must carry */
    this.expected = null
  }

  /** The client-first-message (SASLInitialResponse data). */
  first () {
    return 'n,,' + this.bare
  }

  /**
   * The client-final-message for the server-first-message.
   * @param {string} serverFirst
   * @returns {string}
   */
  final (serverFirst) {
    const attrs = parseAttributes(serverFirst)
    const nonce = attrs.get('r')
    const salt = attrs.get('s')
    const iterations = Number(attrs.get('i'))
    if (!nonce || !salt || !Number.isInteger(iterations) || iterations < 1) throw scramError('the server\'s first SCRAM message is malformed')
    if (!nonce.startsWith(this.nonce) || nonce.length === this.nonce.length) throw scramError('the server\'s SCRAM nonce does not extend the client\'s')
    if (iterations > MAX_ITERATIONS) throw scramError(`the server asks for ${iterations} SCRAM iterations (at most ${MAX_ITERATIONS})`)
    const withoutProof = `c=biws,r=${nonce}` // biws: base64 of the GS2 header "n,,"
    const authMessage = `${this.bare},${serverFirst},${withoutProof}`
    const salted = pbkdf2Sync(saslPrep(this.password), Buffer.from(salt, 'base64'), iterations, 32, 'sha256')
    const clientKey = hmac(salted, 'Client Key')
    const storedKey = createHash('sha256').update(clientKey).digest()
    const signature = hmac(storedKey, authMessage)
    for (let i = 0; i < clientKey.length; i++) clientKey[i] ^= signature[i]
    this.expected = hmac(hmac(salted, 'Server Key'), authMessage)
    return `${withoutProof},p=${clientKey.toString('base64')}`
  }

  /**
   * Check the server-final-message: the server proves it knows the password too.
   * @param {string} serverFinal
   */
  verify (serverFinal) {
    const attrs = parseAttributes(serverFinal)
    if (attrs.has('e')) throw scramError(`the server refused the SCRAM proof: ${attrs.get('e')}`)
    const v = Buffer.from(attrs.get('v') ?? '', 'base64')
    if (this.expected === null || v.length !== this.expected.length || !timingSafeEqual(v, this.expected)) {
      throw scramError('the server\'s SCRAM signature does not match: it does not know the password')
    }
  }
}

function parseAttributes (text) {
  const out = new Map()
  for (const part of text.split(',')) {
    const eq = part.indexOf('=')
    if (eq === 1) out.set(part[0], part.slice(2))
  }
  return out
}

function scramError (message) {
  const e = new Error(`SCRAM authentication failed: ${message}`)
  e.code = 'SCRAM'
  return e
}
