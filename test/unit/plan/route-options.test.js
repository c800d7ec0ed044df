import { test } from 'node:test'
import assert from 'node:assert/strict'
import { routeOptions, typeTargets } from '../../../lib/plan/route-options.js'

const opts = (o) => (key) => o[key]

test('--route TYPE=URL and TYPE=NAME of a --target: one target per server, named', () => {
  const r = routeOptions(opts({
    routeTargets: ['replicas=host=standby target_session_attrs=standby'],
    routes: ['reads.sql=replicas', 'stock-level=postgres://u@s2/db', 'order-status=postgres://u@s2/db', 'writes.sql=main']
  }))
  assert.deepEqual(r.routes, [
    { type: 'reads.sql', target: 'replicas' },
    { type: 'stock-level', target: 'target-1' },
    { type: 'order-status', target: 'target-1' },
    { type: 'writes.sql', target: 'main' }
  ])
  assert.deepEqual(r.routeTargets, [{ name: 'replicas', url: 'host=standby target_session_attrs=standby' }, { name: 'target-1', url: 'postgres://u@s2/db' }])
  const types = ['dir/writes.sql', 'dir/reads.sql', 'stock-level', 'order-status', 'new-order'].map((name) => ({ name }))
  assert.deepEqual(typeTargets(r, types), [0, 1, 2, 2, 0])
})

test('bad routes are refused in one line, without a password', () => {
  const refused = (o, message) => assert.throws(() => routeOptions(opts(o)), (err) => {
    assert.equal(err.code, 'BAD_OPTION')
    assert.match(err.message, message)
    assert.doesNotMatch(err.message + (err.hint ?? ''), /secret/)
    return true
  })
  refused({ routes: ['reads.sql'] }, /^--route "reads.sql" is not TYPE=TARGET$/)
  refused({ routes: ['reads.sql=replicas'] }, /no target named "replicas"/)
  refused({ routes: ['r=postgres://u:secret@a/db', 'r=postgres://u:secret@b/db'] }, /--route r is given twice, to different targets/)
  refused({ routeTargets: ['a=host=x', 'a=host=y'], routes: ['r=a'] }, /--target a is given twice/)
  refused({ routeTargets: ['main=host=x'] }, /other than "main"/)
  refused({ routeTargets: ['a=postgres://u:secret@x/db'] }, /--target a is not used by any --route/)
  refused({ staleness: true }, /--staleness measures routed reads/)
  assert.throws(() => typeTargets({ routes: [{ type: 'x.sql', target: 'main' }] }, [{ name: 'a/x.sql' }, { name: 'b/x.sql' }]), /several scripts are named so/)
})

test('a resolved plan\'s routes resolve again to the same (ab, sweep: replan)', () => {
  const first = routeOptions(opts({ routeTargets: ['replicas=host=a'], routes: ['r.sql=replicas', 's.sql=host=b'] }))
  const again = routeOptions(opts({ routeTargets: first.routeTargets, routes: first.routes }))
  assert.deepEqual(again, first)
})
