/**
 * Prompt-time recall through the hook as Claude Code runs it (runHook with real stdin JSON) on a
 * brain on disk: relevant lines come with their file:line, a line SessionStart showed is not
 * repeated, the setting turns it off, and a damaged index never costs the prompt its reminder.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { runHook } from '../../src/surfaces/hooks/run-hook.ts'
import { runCliCaptured } from '../support/run-cli-captured.ts'

let project: string
let env: Record<string, string>

const prompt = (text: string, session = 's-1') =>
  runHook(
    'user-prompt-submit',
    JSON.stringify({
      session_id: session,
      cwd: project,
      hook_event_name: 'UserPromptSubmit',
      prompt: text,
    }),
    { cwd: project, env },
  )

beforeEach(async () => {
  project = mkdtempSync(join(tmpdir(), 'somnus-prompt-recall-'))
  env = { HOME: mkdtempSync(join(tmpdir(), 'somnus-prompt-recall-home-')) }
  expect((await runCliCaptured(['init', project], { cwd: project, env })).code).toBe(0)
  writeFileSync(
    join(project, '_agent_context', 'knowledge', 'deploys.md'),
    '# Deploys\n\nThe staging deploy needs the VPN up first; without it the rsync step hangs.\n',
  )
  // The index is built by `somnus recall` or a sleep run, never on the prompt path.
  expect((await runCliCaptured(['recall', 'staging'], { cwd: project, env })).code).toBe(0)
})

describe('UserPromptSubmit recall', () => {
  it('adds the relevant line with its file:line, and nothing for an unrelated prompt', async () => {
    const result = await prompt('Why does the staging deploy hang at the rsync step?')
    expect(result.stdout).toContain('[somnus] From memory')
    expect(result.stdout).toContain(
      '- _agent_context/knowledge/deploys.md:3: The staging deploy needs the VPN up first',
    )
    expect((await prompt('Rename the button label to Save')).stdout).toBe('')
  })

  it('never repeats a line the session was shown at SessionStart', async () => {
    const shown = 'The staging deploy needs the VPN up first; without it the rsync step hangs.'
    const somnus = await (await import('../../src/brain/create-somnus.ts')).createSomnus({
      cwd: project,
      env,
    })
    await somnus.rememberShown('s-2', `## Knowledge\n- ${shown}`)
    expect((await prompt('Why does the staging deploy hang at rsync?', 's-2')).stdout).toBe('')
    expect((await prompt('Why does the staging deploy hang at rsync?', 's-3')).stdout).toContain(
      shown,
    )
  })

  it('is off with prompt_recall: false', async () => {
    writeFileSync(join(project, '_agent_context', 'somnus.json'), '{"prompt_recall": false}\n')
    expect((await prompt('Why does the staging deploy hang at rsync?')).stdout).toBe('')
    env.SOMNUS_PROMPT_RECALL = '1'
    expect((await prompt('Why does the staging deploy hang at rsync?')).stdout).toContain(
      'deploys.md:3',
    )
  })

  it('answers a damaged index with nothing and a log line, never an error', async () => {
    writeFileSync(
      join(project, '_agent_context', 'state', '.recall-brain.json'),
      '{"format":1,"stamps":[]}\n{garbage',
    )
    const result = await prompt('Why does the staging deploy hang at rsync?')
    expect(result.stdout).toBe('')
  })
})
