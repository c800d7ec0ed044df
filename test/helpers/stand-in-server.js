// The one stand-in PostgreSQL of the tests and benchmarks: it speaks protocol 3.0 well enough for
// a client to connect and run statements, and answers each one from its first word alone (no SQL
// is run, no data is kept). A statement that reads gets one row of one column ("0"), or the rows
// of the first canned answer whose text it contains; BEGIN and COMMIT move the transaction status
// as a server would. Given a password, it authenticates as PostgreSQL's default does
// (SCRAM-SHA-256). Three ways in:
//   startStandInServer(): on a loopback port (127.0.0.1 only), for drivers over a real socket;
//   StandInSession: the same protocol over any byte transport (the engine bench's in-memory socket,
//     bench/lib/wire-shim.js);
//   answerFor(): the Result a Connection returns for a statement (the engine bench's in-memory
//     connections, bench/lib/fake-shim.js).

import { createServer } from 'node:net'
import { createHash, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto'
import { BIND_COMPLETE, NO_DATA, PARSE_COMPLETE, READY, cstr, dataRow, int32, message, parameterDescription, rowDescription } from '../../lib/db/backend-messages.js'

const SSL_REQUEST = 80877103
const GSSENC_REQUEST = 80877104
const CANCEL_REQUEST = 80877102

const AUTH_OK = message(0x52, int32(0))
const PARAMETERS = Buffer.concat([
  ['server_version', '18.0 (pgload stand-in)'], ['server_encoding', 'UTF8'], ['client_encoding', 'UTF8'],
  ['DateStyle', 'ISO, MDY'], ['integer_datetimes', 'on'], ['standard_conforming_strings', 'on'], ['TimeZone', 'UTC']
].map(([k, v]) => message(0x53, Buffer.concat([cstr(k), cstr(v)]))))
const CLOSE_COMPLETE = message(0x33)
const EMPTY_QUERY = message(0x49)
const ONE_ROW = [['0']]
const FIELD = '?column?'

const SCRAM_ITERATIONS = 4096 // PostgreSQL's default

const READS = new Set(['SELECT', 'WITH', 'VALUES', 'SHOW', 'TABLE', 'FETCH'])
const TAGS = { INSERT: 'INSERT 0 1', UPDATE: 'UPDATE 1', DELETE: 'DELETE 1', MERGE: 'MERGE 1', END: 'COMMIT', ABORT: 'ROLLBACK' }

/**
 * The few set-up queries of `pgload run tpcb` whose answers it reads, for runs with no server
 * behind the stand-in: [text the statement contains, rows].
 * @type {[string, string[][]][]}
 */
export const PGLOAD_SET_UP_ANSWERS = [
  ["current_setting('server_version'), current_setting('server_version_num')", [['18.4', '180004']]],
  ["current_setting('server_version_num')", [['180004']]],
  ["to_regclass('pgbench_branches') is not null", [['t']]],
  ["obj_description(c.oid, 'pg_class') = ", []], // no table left incomplete by a load
  ['count(*) from pgbench_branches', [['10']]]
]

/** How the stand-in answers one statement: from its first word, or from a canned answer. */
class Answer {
  /** @param {string} sql @param {[string, string[][]][]} answers */
  constructor (sql, answers) {
    const word = (/^[\s(]*([A-Za-z]+)/.exec(sql)?.[1] ?? '').toUpperCase()
    this.word = word
    this.empty = word === ''
    this.reads = READS.has(word)
    this.rows = this.reads ? answers.find(([needle]) => sql.includes(needle))?.[1] ?? ONE_ROW : []
    this.fields = this.rows.length > 0 ? this.rows[0].map(() => FIELD) : [FIELD]
    this.status = word === 'BEGIN' || word === 'START' ? 'T' : word === 'COMMIT' || word === 'END' || word === 'ROLLBACK' || word === 'ABORT' ? 'I' : null
    const tag = this.reads ? `SELECT ${this.rows.length}` : TAGS[word] ?? word
    this.rowCount = this.reads ? this.rows.length : /\d+$/.exec(tag) ? 1 : 0
    // the bytes, built once per statement text: a description, the rows and the tag
    this.description = this.reads ? rowDescription(this.fields) : NO_DATA
    this.executed = Buffer.concat([...this.rows.map(dataRow), message(0x43, cstr(tag))])
    // parameters $1..$n, for a Describe of the statement
    let n = 0
    for (const m of sql.matchAll(/\$(\d+)/g)) n = Math.max(n, Number(m[1]))
    this.parameters = parameterDescription(n)
  }
}

/**
 * The Result a Connection returns for a statement (lib/db/connection.js), as the stand-in answers it.
 * @param {string} sql
 * @param {[string, string[][]][]} [answers] canned rows for statements that contain a text
 * @returns {{ command: string, rowCount: number, fields: string[], rows: string[][] }}
 */
export function answerFor (sql, answers = []) {
  const a = new Answer(sql, answers)
  return { command: a.reads ? 'SELECT' : a.word, rowCount: a.rowCount, fields: a.reads ? a.fields : [], rows: a.rows }
}

/**
 * One client's session over any byte transport: frontend bytes in (`onData`), backend bytes out
 * through `sink.write`; `sink.end()` when the session is over. Statements by name, portals, the
 * transaction status.
 */
export class StandInSession {
  /**
   * @param {{ write: (bytes: Buffer) => void, end: () => void, destroyed?: boolean }} sink
   * @param {{ pid?: number, password?: string, answers?: [string, string[][]][], started?: boolean }} [opts]
   *   `started`: the client skips the start-up (it talks protocol from its first message)
   */
  constructor (sink, { pid = 1, password, answers = [], started = false } = {}) {
    this.sink = sink
    this.pid = pid
    this.password = password
    this.answers = answers
    /** @type {Map<string, Answer>} answers by statement text */
    this.byText = new Map()
    /** @type {{ bare: string, serverFirst: string, salt: Buffer }|null} SCRAM exchange under way */
    this.scram = null
    this.started = started
    this.pending = null // bytes not yet a whole message
    this.out = []
    /** @type {Map<string, Answer>} */
    this.statements = new Map()
    /** @type {Map<string, Answer>} */
    this.portals = new Map()
    this.status = 'I'
    this.failed = false // after an error, skip to Sync as a server does
  }

  /** @param {Buffer} chunk */
  onData (chunk) {
    let buf = this.pending === null ? chunk : Buffer.concat([this.pending, chunk])
    let at = 0
    for (;;) {
      if (!this.started) {
        if (buf.length - at < 8) break
        const len = buf.readInt32BE(at)
        if (buf.length - at < len) break
        this.startup(buf.readInt32BE(at + 4))
        at += len
        continue
      }
      if (buf.length - at < 5) break
      const len = buf.readInt32BE(at + 1)
      if (buf.length - at < 1 + len) break
      this.handle(buf[at], buf.subarray(at + 5, at + 1 + len))
      at += 1 + len
    }
    this.pending = at < buf.length ? Buffer.from(buf.subarray(at)) : null
    buf = null
    this.flush()
  }

  startup (code) {
    if (code === SSL_REQUEST || code === GSSENC_REQUEST) { this.out.push(Buffer.from('N')); return }
    if (code === CANCEL_REQUEST) { this.sink.end(); return }
    this.started = true
    if (typeof this.password === 'string' && this.password !== '') {
      this.out.push(message(0x52, Buffer.concat([int32(10), cstr('SCRAM-SHA-256'), Buffer.from([0])])))
      return
    }
    this.ready()
  }

  // After authentication: what a server sends before the first query.
  ready () {
    // A secret key past V8's small integers, as most of a server's random ones are: the client's
    // field then holds a double from the start, as it will in the run.
    this.out.push(AUTH_OK, PARAMETERS, message(0x4b, Buffer.concat([int32(this.pid), int32(0x40000000 + this.pid)])), READY.I)
  }

  /** @param {number} type @param {Buffer} body */
  handle (type, body) {
    if (type === 0x53) { // Sync
      this.failed = false
      this.out.push(READY[this.status])
      return
    }
    if (type === 0x58) { this.sink.end(); return } // Terminate
    if (type === 0x48) return // Flush: onData flushes
    if (type === 0x51) { this.query(cstring(body, 0).text); return }
    if (type === 0x70) { this.sasl(body); return }
    if (this.failed) return
    switch (type) {
      case 0x50: { // Parse: name, text, parameter types
        const name = cstring(body, 0)
        this.statements.set(name.text, this.answer(cstring(body, name.end).text))
        this.out.push(PARSE_COMPLETE)
        return
      }
      case 0x42: { // Bind: portal, statement, ...
        const portal = cstring(body, 0)
        const stmt = cstring(body, portal.end)
        const answer = this.statements.get(stmt.text)
        if (answer === undefined) return this.error('26000', `prepared statement "${stmt.text}" does not exist`)
        this.portals.set(portal.text, answer)
        this.out.push(BIND_COMPLETE)
        return
      }
      case 0x44: { // Describe: 'S' statement or 'P' portal
        const name = cstring(body, 1).text
        const answer = (body[0] === 0x53 ? this.statements : this.portals).get(name)
        if (answer === undefined) return this.error('26000', `"${name}" does not exist`)
        if (body[0] === 0x53) this.out.push(answer.parameters)
        this.out.push(answer.description)
        return
      }
      case 0x45: { // Execute
        const answer = this.portals.get(cstring(body, 0).text)
        if (answer === undefined) return this.error('34000', 'portal does not exist')
        this.execute(answer)
        return
      }
      case 0x43: // Close
        this.out.push(CLOSE_COMPLETE)
        return
      default:
        this.error('0A000', `the stand-in server does not take message type ${String.fromCharCode(type)}`)
    }
  }

  /** SASLInitialResponse, then SASLResponse: the server's side of SCRAM-SHA-256 (RFC 5802). */
  sasl (body) {
    if (this.scram === null) {
      const mechanism = cstring(body, 0)
      const clientFirst = body.toString('utf8', mechanism.end + 4)
      const bare = clientFirst.slice(clientFirst.indexOf(',', clientFirst.indexOf(',') + 1) + 1)
      const nonce = /(?:^|,)r=([^,]*)/.exec(bare)?.[1] ?? ''
      const salt = randomBytes(16)
      const serverFirst = `r=${nonce}${randomBytes(18).toString('base64')},s=${salt.toString('base64')},i=${SCRAM_ITERATIONS}`
      this.scram = { bare, serverFirst, salt }
      this.out.push(message(0x52, Buffer.concat([int32(11), Buffer.from(serverFirst)])))
      return
    }
    const clientFinal = body.toString('utf8')
    const { bare, serverFirst, salt } = this.scram
    this.scram = null
    const at = clientFinal.lastIndexOf(',p=')
    const authMessage = `${bare},${serverFirst},${clientFinal.slice(0, at)}`
    const salted = pbkdf2Sync(this.password.normalize('NFKC'), salt, SCRAM_ITERATIONS, 32, 'sha256')
    const hmac = (key, text) => createHmac('sha256', key).update(text).digest()
    // The client's proof is checked as the server does: the server's signature is only for a
    // client that knows the password (it would let anyone else guess the password offline).
    const storedKey = createHash('sha256').update(hmac(salted, 'Client Key')).digest()
    const proof = Buffer.from(at < 0 ? '' : clientFinal.slice(at + 3), 'base64')
    const clientKey = Buffer.alloc(32)
    const clientSignature = hmac(storedKey, authMessage)
    for (let i = 0; i < 32; i++) clientKey[i] = proof[i] ^ clientSignature[i]
    if (proof.length !== 32 || !timingSafeEqual(createHash('sha256').update(clientKey).digest(), storedKey)) {
      this.error('28P01', 'password authentication failed')
      this.flush()
      this.sink.end()
      return
    }
    const signature = hmac(hmac(salted, 'Server Key'), authMessage).toString('base64')
    this.out.push(message(0x52, Buffer.concat([int32(12), Buffer.from(`v=${signature}`)])))
    this.ready()
  }

  /** Simple protocol: every statement of the text, then ReadyForQuery. */
  query (text) {
    const parts = text.split(';').filter((s) => s.trim() !== '')
    if (parts.length === 0) this.out.push(EMPTY_QUERY)
    for (const sql of parts) {
      const answer = this.answer(sql)
      if (answer.reads) this.out.push(answer.description)
      this.execute(answer)
    }
    this.failed = false
    this.out.push(READY[this.status])
  }

  execute (answer) {
    if (answer.empty) { this.out.push(EMPTY_QUERY); return }
    this.out.push(answer.executed)
    if (answer.status !== null) this.status = answer.status
  }

  /** @param {string} sql @returns {Answer} one per statement text, built once */
  answer (sql) {
    let a = this.byText.get(sql)
    if (a === undefined) { a = new Answer(sql, this.answers); this.byText.set(sql, a) }
    return a
  }

  error (sqlstate, text) {
    this.failed = true
    if (this.status === 'T') this.status = 'E'
    this.out.push(message(0x45, Buffer.concat([Buffer.from('S'), cstr('ERROR'), Buffer.from('C'), cstr(sqlstate), Buffer.from('M'), cstr(text), Buffer.from([0])])))
  }

  flush () {
    if (this.out.length === 0 || this.sink.destroyed) return
    this.sink.write(this.out.length === 1 ? this.out[0] : Buffer.concat(this.out))
    this.out.length = 0
  }
}

function cstring (buf, at) {
  const end = buf.indexOf(0, at)
  const stop = end < 0 ? buf.length : end
  return { text: buf.toString('utf8', at, stop), end: stop + 1 }
}

/**
 * @typedef {object} StandInServer
 * @property {number} port
 * @property {import('../../lib/db/connection.js').Target} target a target for openConnection / openLeanConnection
 * @property {() => Promise<void>} close closes the listener and every session
 */

/**
 * Start a stand-in server on 127.0.0.1 (a free port).
 * @param {{ password?: string, answers?: [string, string[][]][] }} [opts] `password`: authenticate
 *   with SCRAM-SHA-256 for it; `answers`: canned rows for statements that contain a text
 * @returns {Promise<StandInServer>}
 */
export async function startStandInServer ({ password, answers } = {}) {
  const sockets = new Set()
  let pid = 1
  const server = createServer({ noDelay: true }, (socket) => {
    sockets.add(socket)
    const session = new StandInSession(socket, { pid: pid++, password, answers })
    socket.on('data', (chunk) => session.onData(chunk))
    socket.on('error', () => {}) // a client gone mid-write: nothing to keep
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  const port = server.address().port
  const config = { host: '127.0.0.1', port, user: 'pgload', database: 'pgload', password, ssl: false }
  return {
    port,
    target: { config, display: `stand-in server 127.0.0.1:${port}`, embedded: false },
    async close () {
      for (const s of sockets) s.destroy()
      await new Promise((resolve) => server.close(() => resolve()))
    }
  }
}
