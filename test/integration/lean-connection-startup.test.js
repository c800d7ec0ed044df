// The lean connection's own start-up against the real server (SCRAM-SHA-256, its default):
// parameters, backend key, options, wrong password, sslmode, cancel requests, connect timeout.
// Cleartext, MD5, TLS and refused mechanisms against a small start-up-only server in this file.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { createServer } from 'node:net'
import { TLSSocket } from 'node:tls'
import { createHash, randomBytes } from 'node:crypto'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getTestServer } from '../helpers/server.js'
import { openConnection } from '../../lib/db/connection.js'
import { openLeanConnection } from '../../lib/db/lean-connection.js'
import { connectSocket } from '../../lib/db/connect-socket.js'
import { StreamTransport } from '../../lib/db/transport.js'
import { sendCancelRequest } from '../../lib/db/cancel-request.js'
import { explainConnectError } from '../../lib/server/target/resolve-target.js'

let target
let setup
const dir = mkdtempSync(join(tmpdir(), 'pgload-lean-startup-'))
before(async () => {
  ({ target } = await getTestServer())
  setup = await openConnection(target, { protocol: 'simple' })
})
after(async () => {
  await setup?.close()
  rmSync(dir, { recursive: true, force: true })
})

const withConfig = (extra) => ({ ...target, config: { ...target.config, ...extra } })

test('SCRAM-SHA-256 against the server: key data, parameters, application_name and options', async () => {
  const conn = await openLeanConnection(withConfig({ options: '-c statement_timeout=4321' }), { applicationName: 'pgload-startup' })
  try {
    assert.equal(conn.authentication, 'SCRAM-SHA-256')
    assert.equal(conn.transactionStatus, 'I')
    assert.match(conn.parameters.server_version, /^\d+/)
    assert.equal(conn.parameters.client_encoding, 'UTF8')
    const r = await conn.simpleQuery("SELECT pg_backend_pid(), current_setting('application_name'), current_setting('statement_timeout')")
    assert.deepEqual(r.rows, [[String(conn.backendPid), 'pgload-startup', '4321ms']])
    // a SET of a reported parameter comes back as ParameterStatus
    assert.equal(conn.parameters.application_name, 'pgload-startup')
    await conn.simpleQuery("SET application_name = 'renamed'")
    assert.equal(conn.parameters.application_name, 'renamed')
  } finally {
    await conn.close()
  }
})

test('a wrong password: one line naming SQLSTATE 28P01, and the run\'s connect error says so', async () => {
  const err = await openLeanConnection(withConfig({ password: 'not-the-password' })).then(() => null, (e) => e)
  assert.equal(err?.code, '28P01')
  assert.match(err.message, /^password authentication failed for user "[^"]+" \(SQLSTATE 28P01\)$/)
  const explained = explainConnectError(err, target)
  assert.match(explained.message, /^password authentication failed for user/)
  assert.doesNotMatch(explained.message, /\n/)
})

test('sslmode=require against a server without SSL: one line; prefer and allow fall back to plain', async () => {
  for (const mode of ['require', 'verify-ca', 'verify-full']) {
    const err = await openLeanConnection(withConfig({ sslmode: mode })).then(() => null, (e) => e)
    assert.equal(err?.message, `server does not support SSL, but SSL was required (sslmode=${mode})`)
  }
  for (const mode of ['prefer', 'allow', 'disable']) {
    const conn = await openLeanConnection(withConfig({ sslmode: mode }))
    try {
      assert.deepEqual((await conn.simpleQuery('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()')).rows, [['f']])
    } finally {
      await conn.close()
    }
  }
})

test('a cancel request with the backend key stops pg_sleep; cancel() also ends the connection', async () => {
  const conn = await openLeanConnection(target)
  try {
    const sleeping = conn.simpleQuery('SELECT pg_sleep(30)').then(() => null, (e) => e)
    await waitFor(async () => (await setup.simpleQuery(`SELECT 1 FROM pg_stat_activity WHERE pid = ${conn.backendPid} AND state = 'active'`)).rows.length === 1)
    const answered = await sendCancelRequest({ host: target.config.host, port: target.config.port, pid: conn.backendPid, secretKey: conn.secretKey, timeoutMs: 5000 })
    assert.equal(answered, true)
    const err = await sleeping
    assert.equal(err?.code, '57014') // query_canceled: the key was the backend's
    assert.deepEqual((await conn.simpleQuery('SELECT 1')).rows, [['1']])
    const again = conn.simpleQuery('SELECT pg_sleep(30)').then(() => null, (e) => e)
    await waitFor(async () => (await setup.simpleQuery(`SELECT 1 FROM pg_stat_activity WHERE pid = ${conn.backendPid} AND state = 'active'`)).rows.length === 1)
    const started = Date.now()
    await conn.cancel(5000)
    // the server may answer the cancel before the socket is gone
    assert.ok(['57014', 'CONNECTION_LOST'].includes((await again)?.code))
    await assert.rejects(conn.simpleQuery('SELECT 1'), { code: 'CONNECTION_LOST' })
    assert.ok(Date.now() - started < 20_000)
    await waitFor(async () => (await setup.simpleQuery(`SELECT 1 FROM pg_stat_activity WHERE pid = ${conn.backendPid} AND state = 'active'`)).rows.length === 0)
  } finally {
    conn.destroy()
  }
})

test('connect_timeout bounds a server that accepts and never answers', async () => {
  const silent = createServer(() => {})
  await new Promise((resolve) => silent.listen(0, '127.0.0.1', resolve))
  try {
    const err = await openLeanConnection({ config: { host: '127.0.0.1', port: silent.address().port, user: 'u', database: 'd', connectionTimeoutMillis: 300 } }).then(() => null, (e) => e)
    assert.equal(err?.code, 'ETIMEDOUT')
    assert.match(explainConnectError(err, target).message, /timed out/)
  } finally {
    silent.close()
  }
})

// ---- a start-up-only server: SSLRequest, one authentication method, then ready ----

const int32 = (n) => { const b = Buffer.alloc(4); b.writeInt32BE(n); return b }
const msg = (code, ...parts) => { const body = Buffer.concat(parts); return Buffer.concat([Buffer.from([code]), int32(body.length + 4), body]) }
const cstr = (s) => Buffer.from(s + '\0')
const READY = Buffer.concat([msg(0x53, cstr('server_version'), cstr('17.0 fake')), msg(0x4b, int32(4242), int32(-7)), msg(0x5a, Buffer.from('I'))])
const authFailed = (user) => msg(0x45, cstr('SFATAL'), cstr('VFATAL'), cstr('C28P01'), cstr(`Mpassword authentication failed for user "${user}"`), Buffer.from([0]))

/**
 * @param {{ method: 'password'|'md5'|'sasl-plus-only'|'gss', password?: string, tls?: { key: string, cert: string } }} opts
 */
async function startupServer ({ method, password, tls }) {
  const seen = []
  const open = new Set()
  const server = createServer((raw) => {
    open.add(raw)
    raw.on('close', () => open.delete(raw))
    let socket = raw
    let buf = Buffer.alloc(0)
    let state = 'startup'
    let user = ''
    let salt = null
    const onData = (d) => {
      buf = Buffer.concat([buf, d])
      while (true) {
        if (state === 'startup') {
          if (buf.length < 4 || buf.length < buf.readInt32BE(0)) return
          const len = buf.readInt32BE(0)
          const code = buf.readInt32BE(4)
          const body = buf.subarray(8, len)
          buf = buf.subarray(len)
          if (code === 80877103) { // SSLRequest
            seen.push('ssl-request')
            if (!tls) { socket.write('N'); continue }
            socket.write('S')
            socket.removeListener('data', onData)
            socket = new TLSSocket(socket, { isServer: true, key: tls.key, cert: tls.cert })
            socket.on('data', onData)
            socket.on('error', () => {})
            seen.push('tls')
            return
          }
          const params = body.toString().split('\0')
          user = params[params.indexOf('user') + 1]
          seen.push(`startup ${user} ${params[params.indexOf('application_name') + 1]}`)
          if (method === 'password') socket.write(msg(0x52, int32(3)))
          else if (method === 'md5') { salt = randomBytes(4); socket.write(msg(0x52, int32(5), salt)) } else if (method === 'sasl-plus-only') socket.write(msg(0x52, int32(10), cstr('SCRAM-SHA-256-PLUS'), Buffer.from([0])))
          else socket.write(msg(0x52, int32(7))) // GSS
          state = 'auth'
          continue
        }
        if (buf.length < 5 || buf.length < 1 + buf.readInt32BE(1)) return
        const type = buf[0]
        const len = buf.readInt32BE(1)
        const body = buf.subarray(5, 1 + len)
        buf = buf.subarray(1 + len)
        if (type !== 0x70) continue // only PasswordMessage matters here
        const given = body.toString('utf8', 0, body.length - 1)
        const want = method === 'md5'
          ? 'md5' + createHash('md5').update(createHash('md5').update(password + user).digest('hex')).update(salt).digest('hex')
          : password
        seen.push(`password ${given === want ? 'right' : 'wrong'}`)
        socket.write(given === want ? Buffer.concat([msg(0x52, int32(0)), READY]) : authFailed(user))
        state = 'ready'
      }
    }
    socket.on('data', onData)
    socket.on('error', () => {})
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = server.address().port
  return {
    seen,
    target: (extra = {}) => ({ config: { host: '127.0.0.1', port, user: 'alice', database: 'db', password, ...extra } }),
    close: () => new Promise((resolve) => {
      server.close(resolve)
      for (const s of open) s.destroy() // a client that failed a test may still hold one
    })
  }
}

for (const method of ['password', 'md5']) {
  test(`${method === 'md5' ? 'MD5' : 'cleartext password'} authentication: the right password in, a wrong one refused with 28P01`, async () => {
    const s = await startupServer({ method, password: 'sésame' })
    try {
      const conn = await openLeanConnection(s.target())
      assert.equal(conn.authentication, method === 'md5' ? 'MD5' : 'password')
      assert.equal(conn.backendPid, 4242)
      assert.equal(conn.secretKey, -7)
      assert.equal(conn.parameters.server_version, '17.0 fake')
      conn.destroy()
      const err = await openLeanConnection(s.target({ password: 'other' })).then(() => null, (e) => e)
      assert.equal(err?.code, '28P01')
      assert.deepEqual(s.seen, ['startup alice pgload', 'password right', 'startup alice pgload', 'password wrong'])
      const none = await openLeanConnection(s.target({ password: undefined })).then(() => null, (e) => e)
      assert.match(none?.message, /asks for a password and none was given for user "alice"/)
    } finally {
      await s.close()
    }
  })
}

test('only SCRAM-SHA-256-PLUS offered, or an unknown method: one clear line, no hang', async () => {
  for (const [method, pattern] of [['sasl-plus-only', /offers only SCRAM-SHA-256-PLUS/], ['gss', /authentication method pgload does not speak \(code 7\)/]]) {
    const s = await startupServer({ method, password: 'x' })
    try {
      const err = await openLeanConnection(s.target()).then(() => null, (e) => e)
      assert.match(err?.message ?? '', pattern)
      assert.doesNotMatch(err.message, /\n/)
    } finally {
      await s.close()
    }
  }
})

test('TLS when the server answers S: require encrypts; verify-full checks the certificate and the name', async (t) => {
  const key = join(dir, 'key.pem')
  const cert = join(dir, 'cert.pem')
  const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost'], { stdio: 'ignore' })
  if (made.status !== 0) { t.skip('openssl is not available to make a test certificate'); return }
  const tls = { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') }
  const s = await startupServer({ method: 'password', password: 'pw', tls })
  try {
    for (const extra of [{ sslmode: 'require' }, { sslmode: 'prefer' }, { sslmode: 'verify-ca', ssl: { ca: tls.cert } }, { sslmode: 'verify-full', host: 'localhost', ssl: { ca: tls.cert } }]) {
      let transport = null
      const connect = async (...args) => { transport = await connectSocket(...args); return transport }
      const conn = await openLeanConnection(s.target(extra), { connect })
      assert.ok(transport instanceof StreamTransport, 'TLS reads and writes through its stream')
      assert.equal(transport.socket.encrypted, true, extra.sslmode)
      assert.equal(conn.backendPid, 4242)
      conn.destroy()
    }
    // not the CA's certificate, or not the name it was made for
    const unknownCa = await openLeanConnection(s.target({ sslmode: 'verify-ca' })).then(() => null, (e) => e)
    assert.match(unknownCa?.code ?? '', /SELF_SIGNED|UNABLE_TO_VERIFY|DEPTH_ZERO/)
    const wrongName = await openLeanConnection(s.target({ sslmode: 'verify-full', ssl: { ca: tls.cert } })).then(() => null, (e) => e)
    assert.equal(wrongName?.code, 'ERR_TLS_CERT_ALTNAME_INVALID')
  } finally {
    await s.close()
  }
})

async function waitFor (check, timeoutMs = 10_000) {
  const until = Date.now() + timeoutMs
  while (Date.now() < until) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error('condition not reached in time')
}
