/** The package's promises to its users: version in step, bin present, plugin manifest valid. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { VERSION } from '../src/surfaces/cli/run-cli.ts'
import { REPO_ROOT } from './support/shared-data.ts'

const readJson = (path: string) => JSON.parse(readFileSync(join(REPO_ROOT, path), 'utf8'))

describe('package', () => {
  it('reports the version that package.json and the plugin declare', () => {
    expect(VERSION).toBe(readJson('package.json').version)
    expect(readJson('plugin/.claude-plugin/plugin.json').version).toBe(VERSION)
  })

  it('ships a plugin whose hooks.json uses the wrapper object and calls the plugin script', () => {
    const hooks = readJson('plugin/hooks/hooks.json')
    expect(Object.keys(hooks.hooks).sort()).toEqual(
      ['PreCompact', 'SessionEnd', 'SessionStart', 'Stop', 'SubagentStop', 'UserPromptSubmit'].sort(),
    )
    for (const entries of Object.values(hooks.hooks) as { hooks: { command: string }[] }[][]) {
      for (const entry of entries) {
        for (const hook of entry.hooks) expect(hook.command).toContain('${CLAUDE_PLUGIN_ROOT}/scripts/somnus-hook')
      }
    }
  })
})
