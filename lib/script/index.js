// Public entry of the pgbench-compatible script language.

export { BUILTIN_SCRIPTS, findBuiltin, listBuiltins, splitWeight } from './builtins.js'
export { compileScript, splitVariables } from './compile.js'
export { scriptWorkload, parseDefine, ScriptTerminal, SCRIPT_DEFAULTS } from './workload.js'
export { runShell } from './shell.js'
export { PgbenchLogWriter } from './pgbench-log.js'
