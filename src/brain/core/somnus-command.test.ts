import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { installAction, installedFileText } from './claude-agent-files.ts'
import {
  PLUGIN_SOMNUS_COMMAND,
  shellQuote,
  somnusCliCommand,
  withProjectCommand,
  withSomnusCommand,
} from './somnus-command.ts'

describe('somnusCliCommand', () => {
  it('quotes both paths so a shell runs them as two words, whatever they hold', () => {
    const command = somnusCliCommand('/usr/bin/node', '/work/my "odd" $app`x`/node_modules/somnus/')
    expect(command).toBe(
      '"/usr/bin/node" "/work/my \\"odd\\" \\$app\\`x\\`/node_modules/somnus/bin/somnus.js"',
    )
    // A real shell reads back exactly the two paths.
    const words = execFileSync('bash', ['-c', `printf '%s\\n' ${command}`], { encoding: 'utf8' })
    expect(words).toBe('/usr/bin/node\n/work/my "odd" $app`x`/node_modules/somnus/bin/somnus.js\n')
    expect(shellQuote('plain')).toBe('"plain"')
  })
})

describe('withSomnusCommand', () => {
  it('rewrites commands in code spans only, and nothing for plain somnus', () => {
    const text = 'Run `somnus sleep status`; Somnus keeps `somnus-rem-sleep` and somnus notes.'
    expect(withSomnusCommand(text, '"/n" "/s.js"')).toBe(
      'Run `"/n" "/s.js" sleep status`; Somnus keeps `somnus-rem-sleep` and somnus notes.',
    )
    expect(withSomnusCommand(text, 'somnus')).toBe(text)
  })

  it("puts a project's command in place of the plugin's", () => {
    expect(withProjectCommand(`\`${PLUGIN_SOMNUS_COMMAND} sleep done "x"\``, '"/n" "/s.js"')).toBe(
      '`"/n" "/s.js" sleep done "x"`',
    )
  })
})

describe('installAction', () => {
  const wanted = installedFileText(`# Agent\nRun \`${PLUGIN_SOMNUS_COMMAND} sleep start\`.\n`, 'c')

  it('tells new, current, Somnus-written and edited files apart', () => {
    expect(installAction(null, wanted)).toBe('create')
    expect(installAction(wanted, wanted)).toBe('unchanged')
    expect(installAction(wanted.replaceAll('\n', '\r\n'), wanted)).toBe('unchanged')
    const older = installedFileText('# Agent\nRun `old sleep start`.\n', 'c')
    expect(installAction(older, wanted)).toBe('update')
    expect(installAction(older.replace('Agent', 'My agent'), wanted)).toBe('edited')
    expect(installAction('# Agent copied by hand\n', wanted)).toBe('edited')
    // A trailing newline added by an editor is not an edit.
    expect(installAction(`${older}\n`, wanted)).toBe('update')
  })
})
