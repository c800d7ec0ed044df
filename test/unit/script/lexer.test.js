import { test } from 'node:test'
import assert from 'node:assert/strict'
import { compileScript, splitVariables } from '../../../lib/script/index.js'

const sqlOf = (text) => compileScript({ name: 't.sql', text }).commands.map(c => c.type === 'sql' ? c.text : '\\' + c.argv.join(' '))

test('SQL commands end at a top-level semicolon, which stays in the text', () => {
  assert.deepEqual(sqlOf('select 1; select 2;\nselect\n 3;'), ['select 1;', 'select 2;', 'select\n 3;'])
  assert.deepEqual(sqlOf('select 1'), ['select 1'])
})

test('semicolons inside quotes, dollar quotes, comments and parentheses do not split', () => {
  assert.deepEqual(sqlOf("select ';', \"a;b\", E'\\';' ;"), ["select ';', \"a;b\", E'\\';' ;"])
  assert.deepEqual(sqlOf('do $$ begin perform 1; end $$; select $tag$ ; $$ ; $tag$;'), ['do $$ begin perform 1; end $$;', 'select $tag$ ; $$ ; $tag$;'])
  assert.deepEqual(sqlOf('select /* ; /* nested ; */ ; */ 1;'), ['select /* ; /* nested ; */ ; */ 1;'])
  assert.deepEqual(sqlOf('select (1;2);'), ['select (1;2);'])
  assert.deepEqual(sqlOf('select 1 -- a ; comment\n;'), ['select 1 -- a ; comment\n;'])
  assert.deepEqual(sqlOf('create function f() returns int language sql begin atomic select 1; select 2; end; select 3;'),
    ['create function f() returns int language sql begin atomic select 1; select 2; end;', 'select 3;'])
})

test('leading blanks and -- comment lines are dropped, empty commands vanish', () => {
  assert.deepEqual(sqlOf('-- header\n\n   select 1;\n-- only a comment\n;;'), ['select 1;', ';', ';'])
  assert.deepEqual(sqlOf('  \n-- c\nselect 1;\n  -- trailing'), ['select 1;'])
})

test('\\; makes compound statements and a backslash ends the SQL command', () => {
  assert.deepEqual(sqlOf('select 1 \\; select 2;'), ['select 1 ; select 2;'])
  assert.deepEqual(sqlOf('select 1 as a \\gset\n\\set x 1'), ['select 1 as a ', '\\set x'])
  const c = compileScript({ name: 't', text: 'select 1 as a \\gset p_\nselect 2 \\aset' }).commands
  assert.equal(c[0].meta, 'gset')
  assert.equal(c[0].prefix, 'p_')
  assert.equal(c[1].meta, 'aset')
  assert.equal(c[1].prefix, '')
})

test('meta-commands run to the end of the line, with backslash continuations', () => {
  const c = compileScript({ name: 't', text: '  \\setshell v echo \\\n  :one\n\\SLEEP 10ms\n\\\n' }).commands
  assert.deepEqual(c.map(x => x.argv), [['setshell', 'v', 'echo', ':one'], ['SLEEP', '10', 'ms']])
  assert.equal(c[0].firstLine, '\\setshell v echo \\\n  :one')
  assert.equal(c[1].meta, 'sleep')
})

test('positions: line and column of every command', () => {
  const c = compileScript({ name: 't', text: '\n  select 1;  select\n2;\n\t\\set x 1\n' }).commands
  assert.deepEqual(c.map(x => [x.line, x.column]), [[2, 3], [2, 14], [4, 2]])
})

test('splitVariables follows pgbench: names, colon runs, quotes included', () => {
  assert.deepEqual(splitVariables('a = :aid and b::int = :b1x'), { lits: ['a = ', ' and b::int = ', ''], names: ['aid', 'b1x'] })
  assert.deepEqual(splitVariables("':foo' :1 :::x"), { lits: ["'", "' :1 :::x"], names: ['foo'] })
  assert.deepEqual(splitVariables(':foo::INT'), { lits: ['', '::INT'], names: ['foo'] })
})

test('extended and prepared turn :name into $n, one parameter per occurrence', () => {
  const c = compileScript({ name: 't', text: 'select :a, :b, :a;' }, { protocol: 'prepared' }).commands[0]
  assert.equal(c.sql, 'select $1, $2, $3;')
  assert.deepEqual(c.names, ['a', 'b', 'a'])
  assert.match(c.stmt.name, /^P_\d+$/)
})
