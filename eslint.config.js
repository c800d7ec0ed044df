import neostandard from 'neostandard'

export default [
  ...neostandard({ ignores: ['node_modules/**', 'pgload-results/**'] }),
  {
    // Size limits that keep modules and functions readable (CONVENTIONS.md); a scanner's or
    // parser's one big table may opt out with an eslint-disable comment that says why.
    files: ['lib/**/*.js', 'workloads/**/*.js', 'bin/**/*.js'],
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
      'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }]
    }
  }
]
