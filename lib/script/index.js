// Public entry of the pgbench-compatible script language.

export { BUILTIN_SCRIPTS, findBuiltin, listBuiltins, splitWeight } from './builtins.js'
export { compileScript, splitVariables } from './compile.js'
export { scriptWorkload, ScriptTerminal, SCRIPT_DEFAULTS } from './workload.js'
export { parseDefine, checkScriptSet, MAX_SCRIPTS } from './options.js'
export { runShell } from './shell.js'
export { PgbenchLogWriter } from './pgbench-log.js'
