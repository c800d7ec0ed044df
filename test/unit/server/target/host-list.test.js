// Several servers in one connection string: libpq's host/port lists, target_session_attrs and
// load_balance_hosts, read the way libpq 16+ reads them.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { hostCandidates, splitUriHosts, checkedChoice, SESSION_ATTRS, LOAD_BALANCE } from '../../../../lib/server/target/host-list.js'
import { resolveTarget, parseConnectionString, redact } from '../../../../lib/server/target/resolve-target.js'

const noEnv = { HOME: '/nonexistent' }
const DEFAULTS = { host: 'localhost', port: 5432 }

test('URI with several servers: hosts and ports as comma lists, the rest read as usual', () => {
  const p = parseConnectionString('postgresql://al:pw@h1:5432,h2:5433/db?target_session_attrs=read-write&load_balance_hosts=random')
  assert.deepEqual(p, { host: 'h1,h2', port: '5432,5433', user: 'al', password: 'pw', database: 'db', targetSessionAttrs: 'read-write', loadBalanceHosts: 'random' })
  assert.deepEqual(parseConnectionString('postgres://h1,h2/db'), { host: 'h1,h2', database: 'db' })
  assert.deepEqual(parseConnectionString('postgres://[::1]:5433,h%2D2/db'), { host: '::1,h-2', port: '5433,', database: 'db' })
})

test('key=value with several servers', () => {
  assert.deepEqual(parseConnectionString('host=a,b,c port=5432,5433,5434 dbname=x target_session_attrs=prefer-standby'),
    { host: 'a,b,c', port: '5432,5433,5434', database: 'x', targetSessionAttrs: 'prefer-standby' })
})

test('candidates: one port for all, one per host, empty means the default; hostaddr pairs with host', () => {
  assert.deepEqual(hostCandidates({ host: 'a,b', port: '6000' }, DEFAULTS, '--url'), [{ host: 'a', port: 6000 }, { host: 'b', port: 6000 }])
  assert.deepEqual(hostCandidates({ host: 'a,b', port: '6000,' }, DEFAULTS, '--url'), [{ host: 'a', port: 6000 }, { host: 'b', port: 5432 }])
  assert.deepEqual(hostCandidates({}, DEFAULTS, '--url'), [{ host: 'localhost', port: 5432 }])
  assert.deepEqual(hostCandidates({ host: 'a,b', hostaddr: '10.0.0.1,10.0.0.2' }, DEFAULTS, '--url'),
    [{ host: 'a', hostaddr: '10.0.0.1', port: 5432 }, { host: 'b', hostaddr: '10.0.0.2', port: 5432 }])
})

test('candidates: mismatched lists and bad ports are one line naming the option', () => {
  assert.throws(() => hostCandidates({ host: 'a,b,c', port: '1,2' }, DEFAULTS, '--url'), /^PgloadError: --url: 3 host\(s\) but 2 ports; give one port for all or one per host$/)
  assert.throws(() => hostCandidates({ host: 'a,b', hostaddr: '1.1.1.1' }, DEFAULTS, '--url'), /--url: 2 hosts but 1 hostaddr values/)
  assert.throws(() => hostCandidates({ host: 'a,b', port: '1,x' }, DEFAULTS, '--url'), /--url: invalid port "x"/)
  assert.throws(() => hostCandidates({ host: 'a', port: '70000' }, DEFAULTS, '--url'), /--url: invalid port "70000"/)
})

test('target_session_attrs and load_balance_hosts take libpq\'s values only', () => {
  for (const v of SESSION_ATTRS) assert.equal(checkedChoice('target_session_attrs', v, SESSION_ATTRS, '--url'), v)
  for (const v of LOAD_BALANCE) assert.equal(checkedChoice('load_balance_hosts', v, LOAD_BALANCE, '--url'), v)
  assert.throws(() => resolveTarget({ url: 'postgres://h/db?target_session_attrs=master', env: noEnv }),
    /^PgloadError: --url: invalid target_session_attrs "master": use any, read-write, read-only, primary, standby, prefer-standby$/)
  assert.throws(() => resolveTarget({ url: 'host=h load_balance_hosts=yes', env: noEnv }), /invalid load_balance_hosts "yes": use disable, random/)
})

test('one server with any is a plain target; several servers or a session attribute carry the candidates', () => {
  const t = resolveTarget({ url: 'postgres://h:5/db?target_session_attrs=any&load_balance_hosts=random', env: noEnv })
  assert.equal(t.config.host, 'h')
  assert.equal(t.config.port, 5)
  assert.equal(t.hosts, undefined)
  const m = resolveTarget({ url: 'postgresql://u:secret@h1:5432,h2:5433/db?load_balance_hosts=random', env: noEnv })
  assert.deepEqual(m.hosts, [{ host: 'h1', port: 5432 }, { host: 'h2', port: 5433 }])
  assert.equal(m.targetSessionAttrs, 'any')
  assert.equal(m.loadBalanceHosts, 'random')
  assert.equal(m.display, 'postgres://u@h1:5432,h2:5433/db')
  const s = resolveTarget({ url: 'host=h target_session_attrs=standby', env: noEnv })
  assert.deepEqual(s.hosts, [{ host: 'h', port: 5432 }])
  assert.equal(s.targetSessionAttrs, 'standby')
})

test('a single-host URI is left to the URL parser; a malformed host escape is one line', () => {
  assert.equal(splitUriHosts('postgres://u:p@h:5/db'), null)
  assert.throws(() => splitUriHosts('postgres://a%zz,b/db'), /^PgloadError: --url: a host has a malformed percent-escape/)
})

test('redaction covers the password of a several-server URI', () => {
  assert.equal(redact('postgresql://u:pw@h1:5432,h2:5433/db'), 'postgresql://u:***@h1:5432,h2:5433/db')
  assert.equal(redact('host=a,b password=pw port=1,2'), 'host=a,b password=*** port=1,2')
})

test('PGHOST lists and PGTARGETSESSIONATTRS / PGLOADBALANCEHOSTS are read as libpq reads them', () => {
  const t = resolveTarget({ env: { ...noEnv, PGHOST: 'a,b', PGPORT: '1,2', PGTARGETSESSIONATTRS: 'standby', PGLOADBALANCEHOSTS: 'random' } })
  assert.deepEqual(t.hosts, [{ host: 'a', port: 1 }, { host: 'b', port: 2 }])
  assert.equal(t.targetSessionAttrs, 'standby')
  assert.equal(t.loadBalanceHosts, 'random')
})
