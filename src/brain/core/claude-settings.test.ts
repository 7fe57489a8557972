import { describe, expect, it } from 'vitest'
import { SomnusError } from '../../engine/core/errors.ts'
import {
  hasSomnusHooks,
  isSomnusHookCommand,
  mergeSomnusHooks,
  parseClaudeSettings,
  SOMNUS_HOOKS,
  somnusPluginEnabled,
} from './claude-settings.ts'

const command = (event: string) =>
  `"/usr/bin/node" "/opt/somnus/bin/somnus.js" hook ${event.toLowerCase()}`

describe('mergeSomnusHooks', () => {
  it('wires every event with its matcher and timeout into empty settings', () => {
    const { settings, changed } = mergeSomnusHooks({}, command)
    expect(changed).toBe(true)
    expect(Object.keys(settings.hooks as object)).toEqual([
      'SessionStart',
      'Stop',
      'SubagentStop',
      'PreCompact',
      'SessionEnd',
      'UserPromptSubmit',
    ])
    expect((settings.hooks as Record<string, unknown>).SessionStart).toEqual([
      {
        matcher: 'startup|resume|compact|clear',
        hooks: [{ type: 'command', command: command('SessionStart'), timeout: 10 }],
      },
    ])
    expect((settings.hooks as Record<string, unknown>).Stop).toEqual([
      { hooks: [{ type: 'command', command: command('Stop'), timeout: 5 }] },
    ])
  })

  it('keeps other keys, events and hooks, and is idempotent', () => {
    const theirs = { type: 'command', command: 'prettier --write', timeout: 30 }
    const original = {
      model: 'opus',
      permissions: { allow: ['Bash(ls)'] },
      hooks: {
        PostToolUse: [{ matcher: 'Edit|Write', hooks: [theirs] }],
        Stop: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }],
      },
    }
    const frozen = structuredClone(original)
    const first = mergeSomnusHooks(original, command)
    expect(original).toEqual(frozen)
    expect(first.settings.model).toBe('opus')
    expect(first.settings.permissions).toEqual({ allow: ['Bash(ls)'] })
    const hooks = first.settings.hooks as Record<string, unknown[]>
    expect(hooks.PostToolUse).toEqual([{ matcher: 'Edit|Write', hooks: [theirs] }])
    expect(hooks.Stop).toHaveLength(2)
    expect(hooks.Stop?.[0]).toEqual({ hooks: [{ type: 'command', command: 'notify-send done' }] })

    const second = mergeSomnusHooks(first.settings, command)
    expect(second.changed).toBe(false)
    expect(second.settings).toEqual(first.settings)
  })

  it('replaces an older Somnus command (moved install) instead of adding a second one', () => {
    const old = mergeSomnusHooks({}, (event) => `npx somnus hook ${event}`).settings
    const moved = mergeSomnusHooks(old, command)
    expect(moved.changed).toBe(true)
    for (const spec of SOMNUS_HOOKS) {
      const groups =
        (moved.settings.hooks as Record<string, { hooks: { command: string }[] }[]>)[spec.event] ??
        []
      const ours = groups
        .flatMap((group) => group.hooks)
        .filter((hook) => isSomnusHookCommand(hook.command))
      expect(ours.map((hook) => hook.command)).toEqual([command(spec.event)])
    }
  })

  it('removes only our hook from a group shared with another tool', () => {
    const mixed = {
      hooks: {
        Stop: [
          {
            hooks: [
              { type: 'command', command: 'npx somnus hook stop' },
              { type: 'command', command: 'say bye' },
            ],
          },
        ],
      },
    }
    const stop = (mergeSomnusHooks(mixed, command).settings.hooks as Record<string, unknown[]>).Stop
    expect(stop).toEqual([
      { hooks: [{ type: 'command', command: 'say bye' }] },
      { hooks: [{ type: 'command', command: command('Stop'), timeout: 5 }] },
    ])
  })

  it('refuses shapes it cannot merge without clobbering', () => {
    expect(() => mergeSomnusHooks({ hooks: [] }, command)).toThrow(SomnusError)
    expect(() => mergeSomnusHooks({ hooks: { Stop: {} } }, command)).toThrow(/must be an array/)
    expect(() => mergeSomnusHooks('text', command)).toThrow(SomnusError)
  })
})

describe('parseClaudeSettings', () => {
  it('treats a missing or empty file as {} and rejects invalid JSON with the fix', () => {
    expect(parseClaudeSettings(null, 'x')).toEqual({})
    expect(parseClaudeSettings('  ', 'x')).toEqual({})
    expect(() => parseClaudeSettings('{"hooks": ', '/p/.claude/settings.json')).toThrow(
      /settings\.json is not valid JSON .*Fix the file/,
    )
    expect(() => parseClaudeSettings('[]', 'x')).toThrow(/must hold a JSON object/)
  })
})

describe('recognition helpers', () => {
  it('know our commands, our hooks and the plugin', () => {
    expect(isSomnusHookCommand('"/n" "/somnus/bin/somnus.js" hook stop')).toBe(true)
    expect(isSomnusHookCommand('"/n" "/work/checkout/dist/hook.cjs" session-start')).toBe(true)
    expect(isSomnusHookCommand('"C:\\n.exe" "C:\\w\\dist\\hook.cjs" stop')).toBe(true)
    expect(isSomnusHookCommand('node /other/dist/hook.cjs deploy')).toBe(false)
    expect(isSomnusHookCommand('npx agentcontext hook stop')).toBe(false)
    expect(isSomnusHookCommand('somnus-notify')).toBe(false)
    expect(hasSomnusHooks(mergeSomnusHooks({}, command).settings)).toBe(true)
    expect(hasSomnusHooks({ hooks: { Stop: [] } })).toBe(false)
    expect(somnusPluginEnabled({ enabledPlugins: { 'somnus@somnus': true } })).toBe(true)
    expect(somnusPluginEnabled({ enabledPlugins: { 'somnus@somnus': false } })).toBe(false)
  })
})
