// One argument as a POSIX shell reads it back: as it is when no character in it means anything
// to the shell, else in single quotes (a quote inside closed, escaped and reopened), so a
// recorded command line can be pasted into a shell and gives the program the same arguments.

// characters a shell passes through unchanged anywhere in a word
const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/

/**
 * @param {string} arg
 * @returns {string} `arg` itself, or `'arg'` with each `'` written `'\''`
 */
export function shellWord (arg) {
  if (PLAIN.test(arg)) return arg
  return `'${arg.replaceAll("'", "'\\''")}'`
}
