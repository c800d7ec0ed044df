// The Node.js floor for vs-pgbench: the least a Node client can do to run one of pgbench's
// built-in scripts from one event loop. It sends the same prepared statements with the same
// random values as pgbench, but each Bind/Execute/Sync is built by hand into a reused buffer and
// written straight to the socket's handle as pgload writes, and the replies are only framed to
// find ReadyForQuery and ErrorResponse: no rows decoded, no script interpreter, no statistics.
// What pgload loses against pgbench beyond this floor is pgload's own; what the floor loses is
// the runtime's.
// It also runs vs-peers' point select (`SELECT c FROM sbtest1 WHERE id = $1`, id in 1..rows).
// Prints one JSON line: { tps, transactions, errors, cpuUs, cpuUsPerTxn, userUsPerTxn, systemUsPerTxn }.
// Usage: node bench/node-floor-worker.js <select-only|tpcb-like|simple-update|point-select> <clients> <seconds> <url> [rows]

import { openLeanConnection } from '../lib/db/lean-connection.js'
import { connectSocket } from '../lib/db/connect-socket.js'
import { defineStatement } from '../lib/db/connection.js'
import { resolveTarget } from '../lib/server/target/resolve-target.js'
import { applyDriverV8Flags } from '../lib/engine/v8-flags.js'

applyDriverV8Flags() // the runtime settings of pgload's command line

const [builtin, clientArg, secArg, url, rowsArg] = process.argv.slice(2)
const clients = Number(clientArg)
const seconds = Number(secArg)
const target = resolveTarget({ url })

// pgbench's built-in scripts as statements and the variables bound to each ($1, $2, ...).
const ACCOUNTS_UPDATE = ['UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE aid = $2', 'delta', 'aid']
const ACCOUNTS_SELECT = ['SELECT abalance FROM pgbench_accounts WHERE aid = $1', 'aid']
const HISTORY_INSERT = ['INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES ($1, $2, $3, $4, CURRENT_TIMESTAMP)', 'tid', 'bid', 'aid', 'delta']
const SCRIPTS = {
  'select-only': [ACCOUNTS_SELECT],
  'tpcb-like': [['BEGIN'], ACCOUNTS_UPDATE, ACCOUNTS_SELECT,
    ['UPDATE pgbench_tellers SET tbalance = tbalance + $1 WHERE tid = $2', 'delta', 'tid'],
    ['UPDATE pgbench_branches SET bbalance = bbalance + $1 WHERE bid = $2', 'delta', 'bid'],
    HISTORY_INSERT, ['END']],
  'simple-update': [['BEGIN'], ACCOUNTS_UPDATE, ACCOUNTS_SELECT, HISTORY_INSERT, ['END']],
  'point-select': [['SELECT c FROM sbtest1 WHERE id = $1', 'id']]
}
const VAR = { aid: 0, bid: 1, tid: 2, delta: 3, id: 4 }
const script = SCRIPTS[builtin]
if (!script || !(clients >= 1) || !(seconds > 0) || (builtin === 'point-select' && !(Number(rowsArg) >= 1))) {
  process.stderr.write('usage: node bench/node-floor-worker.js <select-only|tpcb-like|simple-update|point-select> <clients> <seconds> <url> [rows]\n')
  process.exit(1)
}
const statements = script.map(([text]) => defineStatement(text))
const slots = script.map(([, ...names]) => names.map((n) => VAR[n]))

// A lean connection (for the start-up, the set-up and the Parse of the statements) on pgload's own
// socket transport (lib/db/handle-transport.js, the cheapest writes Node.js offers), which the
// client then takes over.
async function openClient () {
  let transport = null
  const connect = async (...args) => { transport = await connectSocket(...args); return transport }
  const conn = await openLeanConnection(target, { applicationName: 'pgload-floor', connect })
  return { conn, transport }
}
const clientsOpen = await Promise.all(Array.from({ length: clients }, openClient))
const conns = clientsOpen.map((c) => c.conn)
const setup = conns[0]
const pointSelect = builtin === 'point-select'
const rows = pointSelect ? Number(rowsArg) : 0
const scale = pointSelect ? 0 : Number((await setup.simpleQuery('select count(*) from pgbench_branches')).rows[0][0])
// pgbench's housekeeping before a run, as pgbench and pgload do it
if (!pointSelect) for (const sql of ['vacuum pgbench_branches', 'vacuum pgbench_tellers', 'truncate pgbench_history']) await setup.simpleQuery(sql)
for (const c of conns) for (const s of statements) await c.prepare(s)

const random = (lo, hi) => lo + Math.floor(Math.random() * (hi - lo + 1))
const BUF_BYTES = 512

let transactions = 0
let errors = 0
let stopping = false
let running = clients
let finish = null
const finished = new Promise((resolve) => { finish = resolve })

/** One client: its socket, its variables and where it is in the script. */
function startClient ({ transport: out }) {
  const names = statements.map((s) => Buffer.from(s.name + '\0'))
  const vars = new Int32Array(5)
  let buf = Buffer.allocUnsafe(BUF_BYTES)
  const views = []
  let step = 0
  let pending = 0 // bytes of the current message still to come in later reads
  const header = Buffer.alloc(5)
  let headerLen = 0

  function send () {
    if (step === 0 && pointSelect) {
      vars[VAR.id] = random(1, rows)
    } else if (step === 0) {
      vars[VAR.aid] = random(1, 100000 * scale)
      vars[VAR.bid] = random(1, scale)
      vars[VAR.tid] = random(1, 10 * scale)
      vars[VAR.delta] = random(-5000, 5000)
    }
    const name = names[step]
    const params = slots[step]
    let o = 0
    buf[o] = 0x42 // Bind: portal "", statement, no parameter formats (text), the values
    o = 5
    buf[o++] = 0
    o += name.copy(buf, o)
    buf[o++] = 0; buf[o++] = 0
    buf[o++] = 0; buf[o++] = params.length
    for (let k = 0; k < params.length; k++) o = writeInt(buf, o, vars[params[k]])
    buf[o++] = 0; buf[o++] = 0 // result formats: text
    buf.writeInt32BE(o - 1, 1)
    buf[o++] = 0x45; buf.writeInt32BE(9, o); o += 4; buf[o++] = 0; buf.writeInt32BE(0, o); o += 4 // Execute "", no limit
    buf[o++] = 0x53; buf.writeInt32BE(4, o); o += 4 // Sync
    let view = views[o]
    if (view === undefined) view = views[o] = buf.subarray(0, o)
    if (!out.write(view)) { buf = Buffer.allocUnsafe(BUF_BYTES); views.length = 0 } // still held: keep it
  }

  function readyForQuery () {
    if (++step === statements.length) {
      step = 0
      transactions++
      if (stopping) {
        if (--running === 0) finish()
        return
      }
    }
    send()
  }

  // Frame the replies: skip bodies, count errors, act on ReadyForQuery.
  const onBytes = (b, nread) => {
    let o = 0
    while (o < nread) {
      if (pending > 0) {
        const k = Math.min(pending, nread - o)
        pending -= k
        o += k
        continue
      }
      let type, len
      if (headerLen > 0 || nread - o < 5) {
        while (headerLen < 5 && o < nread) header[headerLen++] = b[o++]
        if (headerLen < 5) return
        headerLen = 0
        type = header[0]
        len = header.readInt32BE(1)
      } else {
        type = b[o]
        len = b.readInt32BE(o + 1)
        o += 5
      }
      pending = len - 4
      if (type === 0x45) errors++
      else if (type === 0x5a) readyForQuery()
    }
  }
  out.receiver = { onBytes, onClose () {}, onError () {} }
  send()
}

// A 32-bit integer as text with its length prefix.
function writeInt (buf, o, v) {
  const start = o + 4
  let p = start
  let u = v
  if (u < 0) { buf[p++] = 0x2d; u = -u }
  let digits = 1
  for (let t = u; t >= 10; t = Math.floor(t / 10)) digits++
  p += digits
  for (let i = 1; i <= digits; i++) { buf[p - i] = 0x30 + (u % 10); u = Math.floor(u / 10) }
  buf.writeInt32BE(p - start, o)
  return p
}

const cpu0 = process.cpuUsage()
const t0 = performance.now()
for (const c of clientsOpen) startClient(c)
await new Promise((resolve) => setTimeout(resolve, seconds * 1000))
stopping = true
await finished
const elapsedS = (performance.now() - t0) / 1000
const cpu = process.cpuUsage(cpu0)
await Promise.all(conns.map((c) => c.close()))
const round1 = (x) => Math.round(x * 10) / 10
process.stdout.write(JSON.stringify({
  builtin,
  clients,
  tps: round1(transactions / elapsedS),
  transactions,
  errors,
  cpuUs: cpu.user + cpu.system,
  userUs: cpu.user,
  cpuUsPerTxn: round1((cpu.user + cpu.system) / transactions),
  userUsPerTxn: round1(cpu.user / transactions),
  systemUsPerTxn: round1(cpu.system / transactions)
}) + '\n')
