import { test } from 'node:test'
import assert from 'node:assert/strict'
import { checkServerVersion, readMeta } from '../../../workloads/tpcc/meta.js'

const fakeConn = (answers) => ({ async query (text) { for (const [re, rows] of answers) if (re.test(text)) return { rows }; throw new Error(`unexpected ${text}`) } })
const complete = [/obj_description/, []] // no table carries the incomplete-load marker

test('servers older than PostgreSQL 13 are refused with one clear line', async () => {
  await assert.rejects(checkServerVersion(fakeConn([[/server_version_num/, [['120017']]]])),
    (err) => err.name === 'PgloadError' && err.exitCode === 1 && /TPC-C needs PostgreSQL 13 or later, the server is version 12/.test(err.message))
  assert.equal(await checkServerVersion(fakeConn([[/server_version_num/, [['130000']]]])), 130000)
})

test('readMeta: no schema, tables without a finished load', async () => {
  await assert.rejects(readMeta(fakeConn([complete, [/to_regclass/, [['f', 'f']]]])), /no TPC-C schema is loaded: run `pgload init tpcc --warehouses N` first/)
  await assert.rejects(readMeta(fakeConn([complete, [/to_regclass/, [['f', 't']]]])), (err) => /--force/.test(err.hint))
  await assert.rejects(readMeta(fakeConn([complete, [/to_regclass/, [['t', 't']]], [/SELECT warehouses/, []]])), /load did not finish/)
  const m = await readMeta(fakeConn([complete, [/to_regclass/, [['t', 't']]], [/SELECT warehouses/, [['3', '101', '42', 'f', '2026-01-01']]]]))
  assert.deepEqual(m, { warehouses: 3, cLoad: 101, seed: '42', foreignKeys: false, loadedAt: '2026-01-01' })
})

test('readMeta: an interrupted load is refused with one line saying to re-run init', async () => {
  await assert.rejects(readMeta(fakeConn([[/obj_description/, [['public.stock'], ['public.warehouse']]]])), (err) => {
    assert.equal(err.code, 'INCOMPLETE_LOAD')
    assert.equal(err.message, 'the tpcc tables are incomplete (public.stock, public.warehouse): an earlier pgload init tpcc did not finish; run `pgload init tpcc --warehouses N --force` again')
    return true
  })
})
