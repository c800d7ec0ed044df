// Protocol 3.0 start-up on a connected socket: StartupMessage, then authentication (trust,
// cleartext password, MD5, SCRAM-SHA-256) and the server's parameters, up to ReadyForQuery.
// Messages arrive framed by ResponseParser while the connection is starting.

import { createHash } from 'node:crypto'
import { ScramClient, SCRAM_SHA_256 } from './scram.js'
import { decodeErrorFields, cstring } from './server-message.js'

const PROTOCOL_3_0 = 196608 // 3 << 16

// Authentication request codes (the int32 after 'R').
const AUTH_OK = 0
const AUTH_CLEARTEXT = 3
const AUTH_MD5 = 5
const AUTH_SASL = 10
const AUTH_SASL_CONTINUE = 11
const AUTH_SASL_FINAL = 12

/**
 * The StartupMessage: protocol 3.0 and the connection parameters (user, database,
 * application_name, and the target's `options`).
 * @param {Record<string, string|undefined>} params
 * @returns {Buffer}
 */
export function startupMessage (params) {
  const parts = []
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null) parts.push(k, String(v))
  const body = Buffer.from(parts.join('\0') + '\0\0', 'utf8')
  const m = Buffer.allocUnsafe(8 + body.length)
  m.writeInt32BE(m.length, 0)
  m.writeInt32BE(PROTOCOL_3_0, 4)
  body.copy(m, 8)
  return m
}

/**
 * A frontend message: type byte, length, body.
 * @param {number} code @param {Buffer} body
 */
function frontend (code, body) {
  const m = Buffer.allocUnsafe(5 + body.length)
  m[0] = code
  m.writeInt32BE(4 + body.length, 1)
  body.copy(m, 5)
  return m
}

const passwordMessage = (text) => frontend(0x70, Buffer.from(text + '\0', 'utf8'))

/**
 * PostgreSQL's MD5 password: "md5" + md5(md5(password + user) + salt), in hex.
 * @param {string} user @param {string} password @param {Buffer} salt 4 bytes
 */
export function md5Password (user, password, salt) {
  const inner = createHash('md5').update(password + user, 'utf8').digest('hex')
  return 'md5' + createHash('md5').update(Buffer.concat([Buffer.from(inner, 'utf8'), salt])).digest('hex')
}

/**
 * One connection's start-up. `done` settles with what the connection keeps (backend key for
 * cancel requests, transaction status, server parameters) or the first error.
 */
export class Startup {
  /**
   * @param {{ user: string, password?: string|(() => string|Promise<string>) }} who
   * @param {(bytes: Buffer) => void} write
   */
  constructor (who, write) {
    this.user = who.user
    this.password = who.password
    this.write = write
    this.pid = 0
    this.secretKey = 0
    /** @type {Record<string, string>} ParameterStatus values (server_version, client_encoding...) */
    this.parameters = {}
    this.scram = null
    /** How the server had us authenticate: 'trust', 'password', 'MD5' or 'SCRAM-SHA-256'. */
    this.method = 'trust'
    /** @type {((notice: any) => void)|null} */
    this.onNotice = null
    this.done = new Promise((resolve, reject) => { this._resolve = resolve; this._reject = reject })
    this.failed = false
  }

  /** Fail the start-up (socket closed, timeout, TLS refused): only the first reason counts. */
  fail (err) {
    if (this.failed) return
    this.failed = true
    this._reject(err)
  }

  /** One backend message: code, body [at, next). */
  onMessage (code, b, at, next) {
    if (this.failed) return
    switch (code) {
      case 0x52: this._auth(b, at, next); return // 'R'
      case 0x53: { // 'S' ParameterStatus
        const [name, o] = cstring(b, at)
        this.parameters[name] = cstring(b, o)[0]
        return
      }
      case 0x4b: // 'K' BackendKeyData
        this.pid = b.readInt32BE(at)
        this.secretKey = b.readInt32BE(at + 4)
        return
      case 0x5a: // 'Z' ReadyForQuery
        this.failed = true // settled
        this._resolve(String.fromCharCode(b[at]))
        return
      case 0x45: { // 'E'
        const err = decodeErrorFields(b, at, next, 'error')
        err.message = `${err.message} (SQLSTATE ${err.code})`
        this.fail(err)
        return
      }
      case 0x4e: this.onNotice?.(decodeErrorFields(b, at, next, 'notice')); return // 'N'
      case 0x76: return // 'v' NegotiateProtocolVersion: a newer server accepting 3.0 and ignoring options we did not send
      default:
        this.fail(new Error(`unexpected message ${JSON.stringify(String.fromCharCode(code))} during start-up`))
    }
  }

  _auth (b, at, next) {
    const kind = b.readInt32BE(at)
    switch (kind) {
      case AUTH_OK: return
      case AUTH_CLEARTEXT:
        this.method = 'password'
        this._withPassword((p) => passwordMessage(p))
        return
      case AUTH_MD5: {
        const salt = Buffer.from(b.subarray(at + 4, at + 8))
        this.method = 'MD5'
        this._withPassword((p) => passwordMessage(md5Password(this.user, p, salt)))
        return
      }
      case AUTH_SASL: {
        const mechanisms = []
        for (let o = at + 4; o < next && b[o] !== 0;) {
          const [m, after] = cstring(b, o)
          mechanisms.push(m)
          o = after
        }
        // SCRAM-SHA-256-PLUS (channel binding) is not spoken: plain SCRAM when the server offers it
        if (!mechanisms.includes(SCRAM_SHA_256)) {
          this.fail(new Error(`the server offers only ${mechanisms.join(', ')} for authentication; pgload's lean connection speaks ${SCRAM_SHA_256} (try --driver pg)`))
          return
        }
        this.method = SCRAM_SHA_256
        this._withPassword((p) => {
          this.scram = new ScramClient(p)
          const data = Buffer.from(this.scram.first(), 'utf8')
          const body = Buffer.allocUnsafe(SCRAM_SHA_256.length + 5 + data.length)
          let o = body.write(SCRAM_SHA_256 + '\0', 0, 'latin1')
          o = body.writeInt32BE(data.length, o)
          data.copy(body, o)
          return frontend(0x70, body)
        })
        return
      }
      case AUTH_SASL_CONTINUE:
        this._step(() => frontend(0x70, Buffer.from(this.scram.final(b.toString('utf8', at + 4, next)), 'utf8')))
        return
      case AUTH_SASL_FINAL:
        this._step(() => { this.scram.verify(b.toString('utf8', at + 4, next)); return null })
        return
      default:
        this.fail(new Error(`the server asks for an authentication method pgload does not speak (code ${kind}): use password, md5 or scram-sha-256 (or --driver pg)`))
    }
  }

  // A step of the exchange that may throw (a malformed or dishonest server message).
  _step (make) {
    if (this.scram === null) { this.fail(new Error('SCRAM message before the exchange started')); return }
    try {
      const reply = make()
      if (reply !== null) this.write(reply)
    } catch (err) {
      this.fail(err)
    }
  }

  // The password may be a function (node-postgres allows it); none at all is the user's mistake.
  _withPassword (make) {
    Promise.resolve(typeof this.password === 'function' ? this.password() : this.password).then((p) => {
      if (this.failed) return
      if (typeof p !== 'string' || p === '') {
        this.fail(new Error(`the server asks for a password and none was given for user ${JSON.stringify(this.user)}`))
        return
      }
      this.write(make(p))
    }, (err) => this.fail(err))
  }
}
