// The embedded server's settings given at every start, so that a server initialised by an older
// pgload gets them too: pg_stat_statements preloaded, for the statements' figures in the summary
// and the report (lib/server/stats/statements-top.js; runs create the extension there).

/** @type {Readonly<Record<string, string>>} */
export const START_SETTINGS = Object.freeze({ shared_preload_libraries: 'pg_stat_statements' })

/**
 * pg_stat_statements in the database a run uses on the embedded server.
 * @param {{ simpleQuery: (text: string) => Promise<any> }} conn
 * @returns {Promise<boolean>} whether it is there (a server started without the library, by an
 *   older pgload, reads as not loaded: the statements' figures then say why they are absent)
 */
export async function enableStatementStats (conn) {
  try {
    await conn.simpleQuery('CREATE EXTENSION IF NOT EXISTS pg_stat_statements')
    return true
  } catch {
    return false
  }
}
