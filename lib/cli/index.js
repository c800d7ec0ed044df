// The explicit list of pgload's commands, in the order --help shows them.

import { runCommand } from './run.js'
import initCommand from './init.js'
import serverCommand from './server.js'

export const commands = [runCommand, initCommand, serverCommand]
