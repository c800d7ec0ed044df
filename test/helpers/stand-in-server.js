// The one stand-in PostgreSQL of the tests and benchmarks: it speaks protocol 3.0 well enough for
// a client to connect and run statements, and answers each one from its first word alone (no SQL
// is run, no data is kept). A statement that reads gets one row of one column ("0"), or the rows
// of the first canned answer whose text it contains; BEGIN and COMMIT move the transaction status
// as a server would. Given a password, it authenticates as PostgreSQL's default does
// (SCRAM-SHA-256). Three ways in:
//   startStandInServer(): on a loopback port (127.0.0.1 only), for drivers over a real socket;
//   StandInSession: the same protocol over any byte transport (the engine bench's in-memory
//     transport, bench/lib/wire-connections.js);
//   answerFor(): the Result a Connection returns for a statement (the engine bench's in-memory
//     connections, bench/lib/fake-connections.js).

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

// A name's bytes as a number: a statement or portal is found per Bind and Execute without making
// a string (the engine bench counts the stand-in's work with pgload's).
function keyOf (b, s, e) {
  let k = e - s
  for (let i = s; i < e; i++) k = (k * 31 + b[i]) % 0x7fffffff
  return k
}

/** Statements or portals by name, looked up from a message's bytes. */
class Names {
  constructor () {
    /** @type {Map<number, { name: Buffer, answer: Answer }>} */
    this.byKey = new Map()
  }

  set (b, s, e, answer) {
    this.byKey.set(keyOf(b, s, e), { name: Buffer.from(b.subarray(s, e)), answer })
  }

  /** @returns {Answer|undefined} undefined for a name never set (or replaced by one of the same key) */
  get (b, s, e) {
    const x = this.byKey.get(keyOf(b, s, e))
    if (x === undefined || x.name.length !== e - s) return undefined
    // names are a few bytes: a loop costs less than a call into Buffer#compare
    for (let i = 0; i < x.name.length; i++) if (x.name[i] !== b[s + i]) return undefined
    return x.answer
  }
}

/**
 * One client's session over any byte transport: frontend bytes in (`onData`), backend messages out
 * through `sink.write`, one call each, then `sink.flush()` once the bytes received are answered;
 * `sink.end()` when the session is over. Statements by name, portals, the transaction status.
 */
export class StandInSession {
  /**
   * @param {{ write: (message: Buffer) => void, flush: () => void, end: () => void }} sink
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
    this.statements = new Names()
    this.portals = new Names()
    /** @type {Answer|null} the unnamed portal's, the one clients bind per statement */
    this.unnamed = null
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
      this.handle(buf[at], buf, at + 5, at + 1 + len)
      at += 1 + len
    }
    this.pending = at < buf.length ? Buffer.from(buf.subarray(at)) : null
    buf = null
    this.sink.flush()
  }

  /** @returns {Answer|undefined} */
  portal (b, s, e) {
    return s === e ? this.unnamed ?? undefined : this.portals.get(b, s, e)
  }

  /** @param {Buffer} m */
  send (m) {
    this.sink.write(m)
  }

  startup (code) {
    if (code === SSL_REQUEST || code === GSSENC_REQUEST) { this.send(Buffer.from('N')); return }
    if (code === CANCEL_REQUEST) { this.sink.end(); return }
    this.started = true
    if (typeof this.password === 'string' && this.password !== '') {
      this.send(message(0x52, Buffer.concat([int32(10), cstr('SCRAM-SHA-256'), Buffer.from([0])])))
      return
    }
    this.ready()
  }

  // After authentication: what a server sends before the first query.
  ready () {
    // A secret key past V8's small integers, as most of a server's random ones are: the client's
    // field then holds a double from the start, as it will in the run.
    for (const m of [AUTH_OK, PARAMETERS, message(0x4b, Buffer.concat([int32(this.pid), int32(0x40000000 + this.pid)])), READY.I]) this.send(m)
  }

  /** One message: its type and its body, b[s, e). */
  handle (type, b, s, e) {
    if (type === 0x53) { // Sync
      this.failed = false
      this.send(READY[this.status])
      return
    }
    if (type === 0x58) { this.sink.end(); return } // Terminate
    if (type === 0x48) return // Flush: onData flushes
    if (type === 0x51) { this.query(b.toString('utf8', s, endOf(b, s, e))); return }
    if (type === 0x70) { this.sasl(b.subarray(s, e)); return }
    if (this.failed) return
    switch (type) {
      case 0x50: { // Parse: name, text, parameter types
        const nameEnd = endOf(b, s, e)
        const answer = this.answer(b.toString('utf8', nameEnd + 1, endOf(b, nameEnd + 1, e)))
        this.statements.set(b, s, nameEnd, answer)
        this.send(PARSE_COMPLETE)
        return
      }
      case 0x42: { // Bind: portal, statement, ...
        const portalEnd = b[s] === 0 ? s : endOf(b, s, e) // mostly the unnamed portal
        const stmtEnd = endOf(b, portalEnd + 1, e)
        const answer = this.statements.get(b, portalEnd + 1, stmtEnd)
        if (answer === undefined) return this.error('26000', `prepared statement "${b.toString('utf8', portalEnd + 1, stmtEnd)}" does not exist`)
        if (portalEnd === s) this.unnamed = answer
        else this.portals.set(b, s, portalEnd, answer)
        this.send(BIND_COMPLETE)
        return
      }
      case 0x44: { // Describe: 'S' statement or 'P' portal
        const nameEnd = endOf(b, s + 1, e)
        const answer = b[s] === 0x53 ? this.statements.get(b, s + 1, nameEnd) : this.portal(b, s + 1, nameEnd)
        if (answer === undefined) return this.error('26000', `"${b.toString('utf8', s + 1, nameEnd)}" does not exist`)
        if (b[s] === 0x53) this.send(answer.parameters)
        this.send(answer.description)
        return
      }
      case 0x45: { // Execute
        const answer = b[s] === 0 ? this.unnamed ?? undefined : this.portal(b, s, endOf(b, s, e))
        if (answer === undefined) return this.error('34000', 'portal does not exist')
        this.execute(answer)
        return
      }
      case 0x43: // Close
        this.send(CLOSE_COMPLETE)
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
      this.send(message(0x52, Buffer.concat([int32(11), Buffer.from(serverFirst)])))
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
      this.sink.end()
      return
    }
    const signature = hmac(hmac(salted, 'Server Key'), authMessage).toString('base64')
    this.send(message(0x52, Buffer.concat([int32(12), Buffer.from(`v=${signature}`)])))
    this.ready()
  }

  /** Simple protocol: every statement of the text, then ReadyForQuery. */
  query (text) {
    const parts = text.split(';').filter((s) => s.trim() !== '')
    if (parts.length === 0) this.send(EMPTY_QUERY)
    for (const sql of parts) {
      const answer = this.answer(sql)
      if (answer.reads) this.send(answer.description)
      this.execute(answer)
    }
    this.failed = false
    this.send(READY[this.status])
  }

  execute (answer) {
    if (answer.empty) { this.send(EMPTY_QUERY); return }
    this.send(answer.executed)
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
    this.send(message(0x45, Buffer.concat([Buffer.from('S'), cstr('ERROR'), Buffer.from('C'), cstr(sqlstate), Buffer.from('M'), cstr(text), Buffer.from([0])])))
  }
}

// Where the C string at b[s] ends (its NUL), within e.
function endOf (b, s, e) {
  const at = b.indexOf(0, s)
  return at < 0 || at > e ? e : at
}

function cstring (buf, at) {
  const end = buf.indexOf(0, at)
  const stop = end < 0 ? buf.length : end
  return { text: buf.toString('utf8', at, stop), end: stop + 1 }
}

// A socket as a session's sink: the messages of one batch of received bytes go out in one write.
function socketSink (socket) {
  const parts = []
  const flush = () => {
    if (parts.length > 0 && !socket.destroyed) socket.write(parts.length === 1 ? parts[0] : Buffer.concat(parts))
    parts.length = 0
  }
  return { write (m) { parts.push(m) }, flush, end () { flush(); socket.end() } }
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
    const session = new StandInSession(socketSink(socket), { pid: pid++, password, answers })
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
