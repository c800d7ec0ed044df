// Bad command lines the option parser catches, said in pgload's words: one line, exit 1.

import { test } from 'node:test'
import { runCli, assertOneLineError } from '../helpers/cli.js'

const cases = [
  [['run', 'tpcb', '--duraton', '5s'], /^pgload: unknown option --duraton \(did you mean --duration\?\)$/],
  [['rn', 'tpcb'], /^pgload: unknown command rn \(did you mean run\?\)$/],
  [['run', 'tpcb', '--delivery', 'foo'], /^pgload: --delivery must be deferred or inline, got "foo"$/],
  [['server', 'stat'], /^pgload: server action must be start, stop, status or url, got "stat" \(did you mean status\?\)$/],
  [['run', '--server-host-stats=maybe'], /^pgload: --server-host-stats is a switch: give it alone, --no-server-host-stats, or =true or =false, got "maybe"$/],
  [['sweep', 'tpcb', '--clints', '1,2'], /^pgload: unknown option --clints \(did you mean --clients\?\)$/]
]

for (const [args, pattern] of cases) {
  test(`pgload ${args.join(' ')}: one line in pgload's words`, async () => {
    assertOneLineError(await runCli(args, { timeoutMs: 60_000 }), pattern)
  })
}
