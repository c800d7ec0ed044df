// The explicit list of pgload's commands, in the order --help shows them.

import { runCommand } from './run.js'
import * as initCommand from './init.js'
import * as verifyCommand from './verify.js'
import * as reportCommand from './report.js'
import * as compareCommand from './compare.js'
import * as checkCommand from './check.js'
import * as abCommand from './ab.js'
import * as sweepCommand from './sweep.js'
import * as mergeCommand from './merge.js'
import * as serverCommand from './server.js'
import * as storeCommand from './store.js'
import * as historyCommand from './history.js'
import * as capacityCommand from './capacity.js'

/** Each a yargs command module: { command, describe, builder, handler }. */
export const commands = [runCommand, initCommand, verifyCommand, reportCommand, compareCommand, checkCommand, mergeCommand, abCommand, sweepCommand, capacityCommand, storeCommand, historyCommand, serverCommand].map(
  ({ command, describe, builder, handler }) => ({ command, describe, builder, handler })
)
