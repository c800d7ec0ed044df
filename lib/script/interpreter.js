// Runs a linked script (link.js) for one terminal: commands are arrays with variable slots and
// statements resolved at load time; aborts and failures follow pgbench.

import { ClientAbortError, classifySqlState, formatServerError } from '../errors.js'
import { abortCommand } from './client-abort.js'
import { K } from './link.js'
import { truth } from './operators.js'
import { execShell } from './shell.js'
import { EvalError, validVariableName } from './values.js'
import { MAX_SLEEP_TEXT, sleepCount, sleepTooLong } from './sleep-time.js'

function evalFailed (st, script, c, e) {
  if (!(e instanceof EvalError || e instanceof RangeError)) throw e // RangeError: a stack overflow, say
  return abortCommand(st, script, c, 'evaluation of meta-command failed', e.message)
}

/**
 * Where one terminal is in its script, and the receiver of its statements' results: the script
 * runs as a chain of callbacks, with no promise per statement (docs/architecture.md, Workload).
 */
export class ScriptCursor {
  /** @param {any} st the ScriptTerminal */
  constructor (st) {
    this.st = st
    this.script = null
    this.ctx = null
    this.env = null
    /** @type {((err: any) => void) | null} */
    this.done = null
    this.i = 0 // the command running
    this.t0 = 0 // its start, with -r
    this.starting = false // inside start(): an end reached now is reported on a later tick
    this._onValue = null // promise callbacks for the rare commands (made on first use)
    this._onReason = null
  }

  /** A statement's result (the Connection's executeTo receiver). */
  onResult (res) {
    try {
      const script = this.script
      const c = script.commands[this.i]
      const st = this.st
      if (c.kind === K.SQL && c.gset !== 0) storeResults(st, script, c, script.protocol === 'simple' ? this.ctx.conn.lastResults : [res])
      this.i = afterCommand(this, this.i)
      if (!advance(this)) endScript(this, null)
    } catch (err) {
      endScript(this, err)
    }
  }

  /** A statement failed, or a rare command's promise rejected. */
  onError (err) {
    const c = this.script.commands[this.i]
    let e = err
    if (c.kind === K.SQL) {
      try { e = sqlError(this.st, this.script, c, err, 0) } catch (bug) { e = bug }
    }
    endScript(this, e)
  }

  // \sleep, shell commands and \endpipeline wait on a promise (they are rare).
  wait (promise) {
    if (this._onValue === null) {
      this._onValue = (v) => this.onResult(v)
      this._onReason = (e) => this.onError(e)
    }
    promise.then(this._onValue, this._onReason)
  }
}

/**
 * Start one transaction (one execution of the script) for a terminal; `done(err)` is called once,
 * never before this returns.
 * @param {ReturnType<typeof linkScript>} script
 * @param {any} ctx the engine's transaction context; ctx.state is the ScriptTerminal
 * @param {object} env workload-wide settings (protocol, timing, shell runner)
 * @param {(err: any) => void} done
 */
export function startScript (script, ctx, env, done) {
  const st = ctx.state
  st.random = ctx.random
  st.scriptIndex = script.index
  st.pipe = null // a retry starts outside any pipeline
  st.runNo++
  const cur = st.cursor
  cur.script = script
  cur.ctx = ctx
  cur.env = env
  cur.done = done
  cur.starting = true
  try {
    cur.i = runSync(st, script, ctx, 0, env.reportPerCommand)
    if (!advance(cur)) endScript(cur, null)
  } catch (err) {
    endScript(cur, err)
  }
  cur.starting = false
}

/**
 * Run one transaction as a promise (for callers without the engine): resolves when the script ends.
 * @param {ReturnType<typeof linkScript>} script
 * @param {any} ctx
 * @param {object} env
 * @returns {Promise<void>}
 */
export function runScript (script, ctx, env) {
  return new Promise((resolve, reject) => {
    startScript(script, ctx, env, (err) => { if (err) reject(err); else resolve() })
  })
}

// Run commands from cur.i until one has to wait (true) or the script ends (false).
function advance (cur) {
  const st = cur.st
  const script = cur.script
  const ctx = cur.ctx
  const cmds = script.commands
  const n = cmds.length
  const timing = cur.env.reportPerCommand
  let i = cur.i
  while (i < n) {
    const c = cmds[i]
    st.commandIndex = i
    cur.i = i
    if (timing) cur.t0 = ctx.nowUs()
    switch (c.kind) {
      case K.SQL: {
        st.ranSql[c.sqlId] = st.runNo // which statements this execution ran (--explain-slowest)
        if (st.pipe !== null) { queueSql(st, script, c); break }
        if (c.isCopy) throw new ClientAbortError('COPY is not supported in pgbench, aborting')
        const conn = ctx.conn
        if (ctx.statement !== undefined) ctx.statement(i) // what the connection runs, for the wait sampler
        if (script.protocol === 'simple') cur.wait(conn.simpleQuery(simpleText(st, c)))
        else if (conn.executeTo !== undefined) conn.executeTo(c.stmt, sqlValues(st, c), cur, c.gset !== 0) // rows only for \gset/\aset
        else cur.wait(conn.execute(c.stmt, sqlValues(st, c)))
        return true
      }
      case K.SLEEP: {
        const us = sleepUs(st, script, c)
        if (us > 0) { cur.wait(ctx.sleepUs(us)); return true }
        break
      }
      case K.SETSHELL: case K.SHELL:
        cur.wait(execShell(st, script, c, cur.env))
        return true
      case K.STARTPIPE:
        if (script.protocol === 'simple') throw abortCommand(st, script, c, 'cannot use pipeline mode with the simple query protocol')
        if (st.pipe !== null) throw abortCommand(st, script, c, 'already in pipeline mode')
        st.pipe = [[]]
        break
      case K.SYNCPIPE:
        if (st.pipe === null) throw abortCommand(st, script, c, 'not in pipeline mode')
        st.pipe.push([])
        break
      case K.ENDPIPE:
        if (st.pipe === null) throw abortCommand(st, script, c, 'not in pipeline mode')
        cur.wait(endPipeline(st, script, c, ctx.conn))
        return true
    }
    i = afterCommand(cur, i)
  }
  cur.i = n
  return false
}

// Command i is over: count its time (-r), run the synchronous ones after it; the next index.
function afterCommand (cur, i) {
  const script = cur.script
  const timing = cur.env.reportPerCommand
  if (timing) {
    script.stats.count[i]++
    script.stats.sumUs[i] += cur.ctx.nowUs() - cur.t0
  }
  return runSync(cur.st, script, cur.ctx, i + 1, timing)
}

// The script ended (err null) or failed: pgbench's end-of-script checks, then report it.
function endScript (cur, err) {
  const st = cur.st
  if (err === null) {
    if (st.pipe !== null) {
      st.pipe = null
      err = new ClientAbortError(`client ${st.clientId} aborted: end of script reached with pipeline open`)
    } else {
      const conn = cur.ctx.conn
      if (conn && conn.transactionStatus !== 'I') {
        err = new ClientAbortError(`client ${st.clientId} aborted: end of script reached without completing the last transaction`)
        err.transactionCompleted = true // pgbench counts this transaction as processed before aborting
      }
    }
  }
  const done = cur.done
  cur.done = null
  // A script that ended without waiting for anything (no SQL): report it on the next turn of the
  // event loop, so that a run of such scripts still lets its timers (the deadline) fire.
  if (cur.starting) setImmediate(done, err)
  else done(err)
}

/**
 * Run the synchronous commands (\set and the \if family) from index i; returns the index of
 * the next command that needs to wait (SQL, \sleep, shell, pipeline) or the end.
 * A small synchronous loop keeps the hot path free of promise machinery.
 */
function runSync (st, script, ctx, i, timing) {
  const cmds = script.commands
  const n = cmds.length
  while (i < n) {
    const c = cmds[i]
    const kind = c.kind
    if (kind > K.ENDIF || kind === K.SQL || kind === K.SLEEP || kind === K.SETSHELL || kind === K.SHELL) return i
    st.commandIndex = i
    const t0 = timing ? ctx.nowUs() : 0
    let next = i + 1
    if (kind === K.SET) {
      let v
      try { v = c.expr(st) } catch (e) { throw evalFailed(st, script, c, e) }
      if (c.slot < 0) throw abortCommand(st, script, c, 'assignment of meta-command failed', `set: invalid variable name: "${c.varName}"`)
      st.vars.setValue(c.slot, st.t, v)
    } else if (kind === K.IF) {
      let v
      try { v = c.expr(st) } catch (e) { throw evalFailed(st, script, c, e) }
      if (!truth(st.t, v)) next = skipToBranch(st, script, c, cmds)
    } else if (kind === K.ELIF || kind === K.ELSE) {
      // reached after running the previous branch: leave the block
      next = c.endif + 1
    }
    if (timing) {
      script.stats.count[i]++
      script.stats.sumUs[i] += ctx.nowUs() - t0
    }
    i = next
  }
  return i
}

function sleepUs (st, script, c) {
  let us
  if (c.sleepSlot >= 0) {
    const s = st.vars.getString(c.sleepSlot)
    if (s === undefined) throw abortCommand(st, script, c, 'execution of meta-command failed', `sleep: undefined variable "${c.varName}"`)
    us = sleepCount(s)
    if (us === 0 && !/^[0-9]/.test(s)) throw abortCommand(st, script, c, 'execution of meta-command failed', `sleep: invalid sleep time "${s}" for variable "${c.varName}"`)
    if (sleepTooLong(us, c.sleepUnit)) throw abortCommand(st, script, c, 'execution of meta-command failed', `sleep: sleep time "${s}" for variable "${c.varName}" is too long, must be ${MAX_SLEEP_TEXT}`)
  } else us = c.sleepUs
  return us * c.sleepUnit
}

/** After a false \if or \elif: evaluate the following \elif conditions, or enter \else. */
function skipToBranch (st, script, c, cmds) {
  let j = c.nextBranch
  for (;;) {
    const b = cmds[j]
    if (b.kind === K.ENDIF || b.kind === K.ELSE) return j + 1
    st.commandIndex = j
    let v
    try { v = b.expr(st) } catch (e) { throw evalFailed(st, script, b, e) }
    if (truth(st.t, v)) return j + 1
    j = b.nextBranch
  }
}

function sqlValues (st, c) {
  const values = st.sqlValues[c.sqlId]
  const slots = c.paramSlots
  const vars = st.vars
  for (let k = 0; k < slots.length; k++) values[k] = vars.getParam(slots[k])
  return values
}

function simpleText (st, c) {
  const lits = c.lits
  const slots = c.paramSlots
  const vars = st.vars
  let s = lits[0]
  for (let k = 0; k < slots.length; k++) {
    const v = vars.getString(slots[k])
    s += (v === undefined ? ':' + c.paramNames[k] : v) + lits[k + 1]
  }
  return s
}

/** Classify an SQL error: retryable and connection errors go to the engine; others abort. */
function sqlError (st, script, c, err, query) {
  const kind = classifySqlState(err?.code)
  if (kind === 'retry') {
    st.errCmds.push(script.index, c.index)
    // where it happened, for pgbench's --verbose-errors line ("got an error in command K ... of script S")
    err.scriptIndex = script.index
    err.commandIndex = c.index
    return err
  }
  if (kind === 'connection') return err
  const e = new ClientAbortError(`client ${st.clientId} script ${script.index} aborted in command ${c.index} query ${query}: ${formatServerError(err)}`, { cause: err })
  e.sqlstate = err?.code
  return e
}

function storeResults (st, script, c, results) {
  const isG = c.gset === 1
  const first = isG ? results.length - 1 : 0
  for (let q = first; q < results.length; q++) {
    const r = results[q]
    const rows = r.rows
    if (isG && rows.length !== 1) {
      throw new ClientAbortError(`client ${st.clientId} script ${script.index} command ${c.index} query ${q}: expected one row, got ${rows.length}`)
    }
    if (rows.length === 0) continue
    const row = rows[rows.length - 1]
    for (let f = 0; f < r.fields.length; f++) {
      const name = c.prefix + r.fields[f]
      const slot = st.vars.registry.find(name)
      if (slot === undefined && !validVariableName(name)) {
        const ctxName = isG ? 'gset' : 'aset'
        const e = new ClientAbortError(`client ${st.clientId} script ${script.index} command ${c.index} query ${q}: error storing into variable ${name}`)
        e.detail = `${ctxName}: invalid variable name: "${name}"`
        throw e
      }
      if (slot !== undefined) st.vars.setString(slot, row[f] ?? '')
    }
  }
}

function queueSql (st, script, c) {
  if (c.gset === 1) throw abortCommand(st, script, { ...c, cmdName: 'gset' }, '\\gset is not allowed in pipeline mode')
  if (c.gset === 2) throw abortCommand(st, script, { ...c, cmdName: 'aset' }, '\\aset is not allowed in pipeline mode')
  st.pipe[st.pipe.length - 1].push({ stmt: c.stmt, values: sqlValues(st, c).slice() })
}

async function endPipeline (st, script, c, conn) {
  const batches = st.pipe
  st.pipe = null
  let results
  try {
    results = await conn.runPipeline(batches)
  } catch (err) {
    throw sqlError(st, script, c, err, 0)
  }
  for (let b = 0; b < results.length; b++) {
    for (let k = 0; k < results[b].length; k++) {
      const r = results[b][k]
      if (r instanceof Error && r.code !== 'PIPELINE_ABORTED') {
        // pgbench reads pipeline results at \endpipeline: errors belong to that command
        throw sqlError(st, script, c, r, 0)
      }
    }
  }
}
