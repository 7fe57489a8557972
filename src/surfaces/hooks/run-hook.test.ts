/** runHook's log: a run that warns without end (a planted ledger) writes a bounded log. */
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { HookDependencies } from './hook-dependencies.ts'
import { BRAIN_HOOK_LOG, MAX_LOG_LINES_PER_RUN, runHook } from './run-hook.ts'

describe('runHook log lines', () => {
  it('logs at most MAX_LOG_LINES_PER_RUN lines per run, the failure, and one line counting the rest', async () => {
    const root = mkdtempSync(join(tmpdir(), 'somnus-run-hook-'))
    mkdirSync(join(root, 'state'))
    const warnings = 1_000
    const dependencies: HookDependencies = {
      locateBrain: () => root,
      createSomnusHooks: (async (options: { warn: (message: string) => void }) => {
        for (let index = 0; index < warnings; index++) options.warn(`warning ${index}`)
        throw new Error('stop here')
      }) as unknown as HookDependencies['createSomnusHooks'],
    }
    const payload = JSON.stringify({ session_id: 's', hook_event_name: 'SessionStart' })
    const result = await runHook(
      'session-start',
      payload,
      { cwd: root, env: { HOME: root } },
      dependencies,
    )
    // The cap's lines, the failure (always logged), and the count of the rest.
    expect(result.log).toHaveLength(MAX_LOG_LINES_PER_RUN + 2)
    expect(result.log.at(-2)).toContain('stop here')
    expect(result.log.at(-1)).toContain(`${warnings - MAX_LOG_LINES_PER_RUN} more warnings`)
    const written = readFileSync(join(root, ...BRAIN_HOOK_LOG.split('/')), 'utf8')
    expect(written.trim().split('\n')).toHaveLength(MAX_LOG_LINES_PER_RUN + 2)
  })
})
