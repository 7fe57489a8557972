/**
 * The environment variable that turns every Somnus hook into a no-op (exit 0, nothing read,
 * nothing printed). `--model claude-cli` sets it for the `claude -p` it starts: that child is a
 * Claude Code session in the same project, and without it the child's own hooks would book its
 * turn into the ledger and hand it the directive (a sleep inside the sleep).
 */
export const SKIP_HOOKS_VARIABLE = 'SOMNUS_SKIP_HOOKS'

/** The value that turns the hooks off. */
export const SKIP_HOOKS_VALUE = '1'
