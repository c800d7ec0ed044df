// Connection target resolution: URI and key=value parsing, precedence, redaction, pgpass, errors.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, writeFileSync, chmodSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { resolveTarget, parseConnectionString, redact, explainConnectError, passwordFromPgpass } from '../../../../lib/server/target/resolve-target.js'
import { PgloadError } from '../../../../lib/errors.js'

const noEnv = { HOME: '/nonexistent' }

test('no --url and no PG* server variables means the embedded server (null)', () => {
  assert.equal(resolveTarget({ env: noEnv }), null)
  assert.equal(resolveTarget({ url: '', env: { ...noEnv, PGPASSWORD: 'x', PGAPPNAME: 'y' } }), null)
})

test('URI: every part, percent-decoding, query parameters', () => {
  const t = resolveTarget({ url: 'postgresql://al%40ice:p%2Fw@db.example:6543/my%20db?sslmode=require&connect_timeout=7&application_name=zz', env: noEnv })
  assert.equal(t.config.host, 'db.example')
  assert.equal(t.config.port, 6543)
  assert.equal(t.config.user, 'al@ice')
  assert.equal(t.config.password, 'p/w')
  assert.equal(t.config.database, 'my db')
  assert.deepEqual(t.config.ssl, { rejectUnauthorized: false })
  assert.equal(t.config.connectionTimeoutMillis, 7000)
  assert.equal(t.config.application_name, 'pgload')
  assert.equal(t.embedded, false)
  assert.equal(t.display, 'postgres://al%40ice@db.example:6543/my%20db')
})

test('URI: defaults as libpq (port 5432, database = user), IPv6 host, host in query', () => {
  const t = resolveTarget({ url: 'postgres://bob@[::1]', env: noEnv })
  assert.equal(t.config.host, '::1')
  assert.equal(t.config.port, 5432)
  assert.equal(t.config.database, 'bob')
  assert.equal(t.display, 'postgres://bob@[::1]:5432/bob')
  const s = resolveTarget({ url: 'postgres:///db?host=/var/run/postgresql&user=u', env: noEnv })
  assert.equal(s.config.host, '/var/run/postgresql')
  assert.equal(s.config.database, 'db')
})

test('key=value: quoting, escapes, spaces around =', () => {
  const p = parseConnectionString("host=h1 port = 5999 dbname='my db' user=u password='it\\'s secret' sslmode=disable")
  assert.deepEqual(p, { host: 'h1', port: '5999', database: 'my db', user: 'u', password: "it's secret", sslmode: 'disable' })
  const t = resolveTarget({ url: 'hostaddr=10.0.0.1 host=ignored.example dbname=d user=u', env: noEnv })
  assert.equal(t.config.host, '10.0.0.1')
  assert.equal(t.config.ssl, false)
  assert.equal(t.config.sslmode, undefined, 'no sslmode given: plain')
  assert.equal(resolveTarget({ url: 'postgres://h/db?sslmode=prefer', env: noEnv }).config.sslmode, 'prefer')
  assert.equal(resolveTarget({ url: 'postgres://h/db', env: { PGSSLMODE: 'require' } }).config.sslmode, 'require')
})

test('bad connection strings name --url and never echo the password', () => {
  assert.throws(() => parseConnectionString('mysql://u:secret@h/db'), (e) => e instanceof PgloadError && /--url/.test(e.message) && !/secret/.test(e.message))
  assert.throws(() => parseConnectionString('host=h password=secret bogus=1'), /unsupported connection parameter "bogus"/)
  assert.throws(() => resolveTarget({ url: 'host=h port=99999', env: noEnv }), /invalid port/)
  assert.throws(() => resolveTarget({ url: 'postgres://h/db?sslmode=sometimes', env: noEnv }), /sslmode/)
  assert.equal(redact('postgres://u:secret@h/db'), 'postgres://u:***@h/db')
  assert.equal(redact("host=h password='a b' user=u"), 'host=h password=*** user=u')
})

test('precedence: --url fields > PG* environment > defaults; PGAPPNAME is ignored', () => {
  const env = { ...noEnv, PGHOST: 'envhost', PGPORT: '5555', PGUSER: 'envuser', PGDATABASE: 'envdb', PGPASSWORD: 'envpw', PGAPPNAME: 'other' }
  const e = resolveTarget({ env })
  assert.deepEqual([e.config.host, e.config.port, e.config.user, e.config.database, e.config.password, e.config.application_name],
    ['envhost', 5555, 'envuser', 'envdb', 'envpw', 'pgload'])
  assert.equal(e.display, 'postgres://envuser@envhost:5555/envdb')
  const u = resolveTarget({ url: 'postgres://urluser@urlhost/urldb', env })
  assert.deepEqual([u.config.host, u.config.port, u.config.user, u.config.database, u.config.password],
    ['urlhost', 5555, 'urluser', 'urldb', 'envpw'])
})

test('display never contains the password', () => {
  for (const url of ['postgres://u:hunter2@h/db', 'host=h user=u password=hunter2']) {
    const t = resolveTarget({ url, env: noEnv })
    assert.equal(t.config.password, 'hunter2')
    assert.ok(!t.display.includes('hunter2'), t.display)
    assert.ok(!JSON.stringify({ display: t.display }).includes('hunter2'))
  }
})

test('~/.pgpass (or PGPASSFILE) supplies the password when none is given, as libpq', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pgload-pgpass-'))
  try {
    const file = join(dir, '.pgpass')
    writeFileSync(file, '# comment\nother:5432:*:u:nope\nh:5432:db:u:from\\:file\n*:*:*:*:fallback\n')
    chmodSync(file, 0o600)
    const t = resolveTarget({ url: 'postgres://u@h/db', env: { HOME: dir } })
    assert.equal(t.config.password, 'from:file')
    assert.equal(passwordFromPgpass({ host: 'x', port: 1, database: 'd', user: 'v' }, { PGPASSFILE: file }), 'fallback')
    assert.equal(resolveTarget({ url: 'postgres://u:given@h/db', env: { HOME: dir } }).config.password, 'given')
    chmodSync(file, 0o644) // libpq ignores a pgpass file others can read
    assert.equal(resolveTarget({ url: 'postgres://u@h/db', env: { HOME: dir } }).config.password, undefined)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('explainConnectError: one line per cause, names host:port, never the password', () => {
  const target = resolveTarget({ url: 'postgres://u:topsecret@dbhost:6000/shop', env: noEnv })
  const cases = [
    [{ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' }, /dbhost:6000.*refused/],
    [{ code: 'ENOTFOUND', message: 'getaddrinfo ENOTFOUND dbhost' }, /unknown host dbhost/],
    [{ message: 'Connection terminated due to connection timeout' }, /dbhost:6000: timed out/],
    [{ code: '28P01', message: 'password authentication failed for user "u"' }, /password authentication failed for user "u" at dbhost:6000/],
    [{ code: '3D000', message: 'database "shop" does not exist' }, /database "shop" does not exist/],
    [{ code: '28000', message: 'role "u" does not exist' }, /rejected user "u": role "u" does not exist/]
  ]
  for (const [err, re] of cases) {
    const e = explainConnectError(Object.assign(new Error(err.message), err), target)
    assert.ok(e instanceof PgloadError)
    assert.match(e.message, re)
    assert.ok(!e.message.includes('\n'))
    assert.ok(e.hint)
    assert.ok(!(e.message + e.hint).includes('topsecret'))
  }
})

test('connect_timeout as libpq reads it: seconds; zero or negative waits indefinitely; not given, the drivers\' own bound', () => {
  const at = (v) => resolveTarget({ url: `host=db connect_timeout=${v}`, env: noEnv }).config.connectionTimeoutMillis
  assert.equal(at('7'), 7000)
  assert.equal(at('0'), 0, 'no timer: wait indefinitely')
  assert.equal(at('-3'), 0)
  assert.equal(resolveTarget({ url: 'host=db', env: noEnv }).config.connectionTimeoutMillis, undefined)
  assert.equal(resolveTarget({ url: 'host=db', env: { ...noEnv, PGCONNECT_TIMEOUT: '0' } }).config.connectionTimeoutMillis, 0)
  assert.throws(() => at('abc'), { message: 'invalid connect_timeout "abc": a whole number of seconds (0: wait indefinitely)' })
  assert.throws(() => at('2.5'), { message: /^invalid connect_timeout "2.5"/ })
  assert.throws(() => at('99999999'), { message: 'connect_timeout 99999999 is too large: at most 2147483 seconds (0: wait indefinitely)' })
})
