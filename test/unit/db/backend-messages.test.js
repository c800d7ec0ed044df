// The stand-in servers' backend messages read back by pg-protocol's parser, as a client reads them.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { parse } from 'pg-protocol'
import { PassThrough } from 'node:stream'
import { BIND_COMPLETE, NO_DATA, PARSE_COMPLETE, READY, dataRow, parameterDescription, rowDescription } from '../../../lib/db/backend-messages.js'

async function read (bytes) {
  const stream = new PassThrough()
  const got = []
  const done = parse(stream, (msg) => got.push(msg))
  stream.end(bytes)
  await done
  return got
}

test('row description, data row, parameter description and the fixed ones parse as PostgreSQL\'s', async () => {
  const msgs = await read(Buffer.concat([PARSE_COMPLETE, BIND_COMPLETE, parameterDescription(2), rowDescription(['a', '?column?']),
    dataRow(['0', null, 'é']), NO_DATA, READY.T]))
  assert.deepEqual(msgs.map((m) => m.name), ['parseComplete', 'bindComplete', 'parameterDescription', 'rowDescription', 'dataRow', 'noData', 'readyForQuery'])
  assert.deepEqual(msgs[2].dataTypeIDs, [25, 25])
  assert.deepEqual(msgs[3].fields.map((f) => [f.name, f.tableID, f.columnID, f.dataTypeID, f.dataTypeSize, f.dataTypeModifier, f.format]),
    [['a', 0, 0, 25, -1, -1, 'text'], ['?column?', 0, 0, 25, -1, -1, 'text']])
  assert.deepEqual(msgs[4].fields, ['0', null, 'é'])
  assert.equal(msgs[6].status, 'T')
})
