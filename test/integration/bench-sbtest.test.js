// vs-peers' sbtest1: the bench loads its own table again when it is too small (a --smoke run
// leaves one), and never touches an sbtest1 it did not make.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { getTestServer } from '../helpers/server.js'
import { openConnection } from '../../lib/db/connection.js'
import { resolveTarget } from '../../lib/server/target/resolve-target.js'
import { ensureSbtest } from '../../bench/lib/sbtest-data.js'

let server
let conn
const log = () => {}
const rowCount = async () => Number((await conn.simpleQuery('SELECT count(*) FROM sbtest1')).rows[0][0])

before(async () => {
  const { url } = await getTestServer()
  server = { target: resolveTarget({ url }) }
  conn = await openConnection(server.target, { protocol: 'simple' })
  await conn.simpleQuery('DROP TABLE IF EXISTS sbtest1')
})
after(async () => {
  await conn?.simpleQuery('DROP TABLE IF EXISTS sbtest1')
  await conn?.close()
})

test('a table the bench made is loaded again when too small, and reused when large enough', async () => {
  assert.equal(await ensureSbtest(server, { rows: 100, log }), 100)
  assert.equal(await ensureSbtest(server, { rows: 50, log }), 100, 'large enough: kept')
  assert.equal(await rowCount(), 100)
  const lines = []
  assert.equal(await ensureSbtest(server, { rows: 300, log: (s) => lines.push(s) }), 300)
  assert.equal(await rowCount(), 300)
  assert.match(lines.join(''), /sbtest1 \(the bench's own\) has 100 rows, loading it again/)
})

test('an sbtest1 of sysbench\'s shape that the bench did not make is refused when too small, and kept', async () => {
  await conn.simpleQuery('COMMENT ON TABLE sbtest1 IS NULL')
  await conn.simpleQuery('DELETE FROM sbtest1 WHERE id > 10')
  await assert.rejects(ensureSbtest(server, { rows: 300, log }), /sbtest1 has 10 rows, the bench needs 300/)
  assert.equal(await rowCount(), 10)
})

test('an sbtest1 of another shape is refused, whatever its size', async () => {
  await conn.simpleQuery('DROP TABLE sbtest1')
  await conn.simpleQuery('CREATE TABLE sbtest1 (id int, note text)')
  await conn.simpleQuery("COMMENT ON TABLE sbtest1 IS 'made by the pgload bench'")
  await assert.rejects(ensureSbtest(server, { rows: 10, log }), /sbtest1 exists with columns id,note/)
  assert.equal((await conn.simpleQuery("SELECT count(*) FROM pg_attribute WHERE attrelid = 'sbtest1'::regclass AND attname = 'note'")).rows[0][0], '1')
})
