/** `somnus demo`, the newcomer's first command: it must run offline and show a whole cycle. */
import { describe, expect, it } from 'vitest'
import { runCliCaptured } from './support/run-cli-captured.ts'

describe('somnus demo', () => {
  it('scores the bundled sessions, directs a sleep, consolidates, and ends rested', async () => {
    const run = await runCliCaptured(['demo'], {
      cwd: process.cwd(),
      env: { PATH: process.env.PATH },
    })
    const { code } = run
    const output = run.stdout + run.stderr
    expect(code, output).toBe(0)
    // The three recorded Claude Code sessions: 3 Write/Edit + 6 tools, 2 + 5, 1 + 2 (seed score 1 each).
    expect(output).toContain('(+1) 3 changes, 6 tools — Added GET /health')
    expect(output).toContain('(+1) 2 changes, 5 tools — Fixed the flaky login test')
    expect(output).toContain('(+1) 1 change, 2 tools — Wrote docs/caching.md')
    expect(output).toContain('Sleep debt: 6 (Drowsy')
    expect(output).toContain('>> CRITICAL BOOKMARKS NEED CONSOLIDATION <<')
    // The sleep agent `init` just installed is Somnus's own: no planted-file warning.
    expect(output).not.toContain('is not the file Somnus installs')
    expect(output).toContain('Dispatch the somnus-rem-sleep sub-agent with a brief of recent work')
    expect(output).toContain('# Agent Context — Auto-loaded')
    expect(output).toMatch(
      /\+- Never log API keys, even in debug mode <!-- sources: bm_[0-9a-f]{8}; extractive/,
    )
    expect(output).toContain('Would run: Consolidated 4 sessions and 1 bookmark (extractive)')
    expect(output).toContain('Done: Consolidated 4 sessions and 1 bookmark (extractive)')
    expect(output).toContain('Sleep debt: 0 (Alert')
    // The caching session's digest keeps its deadline; its changelog entry says what changed.
    expect(output).toContain(
      '**Summary:** Set out to write a short design note on caching for the API; the caching work is due on 2026-12-15.',
    )
    expect(output).toContain('"message": "Added docs/caching.md."')
    // What a newcomer reads after the sleep (the memory file, printed whole from Active Memory):
    // the wrap-ups' lessons landed, no template placeholder is left, the changelog says what
    // changed and a rule became a reminder.
    const memory = output.slice(output.indexOf("$ sed -n '/## Active Memory/"))
    const knownIssues = memory.slice(memory.indexOf('## Known Issues'), memory.indexOf('$ ls'))
    expect(knownIssues).toContain('- CI machines are about 3x slower than laptops')
    expect(memory.slice(0, memory.indexOf('$ ls'))).not.toMatch(/^\s*- \(.*\)\s*$/m)
    expect(memory).toContain('- When adding endpoints, register them in src/routes.ts first.')
    expect(output).toContain('+ trigger when "adding,endpoints"')
    expect(output).toContain(
      '"message": "Added GET /health in src/health.ts with a test beside it."',
    )
    expect(output).not.toMatch(/"message": "[^"]*(?:Known issue|When adding)/)
    // The last step runs the sleep again: nothing is left to consolidate.
    expect(output.trimEnd()).toMatch(/Nothing to consolidate[^\n]*\n\s*\nDone\./)
  }, 60_000)
})
