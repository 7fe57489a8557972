/**
 * An in-memory pattern workspace (seed 002, docs/design/origins.md) for use-case tests: memory
 * folders, a fixed clock.
 */

import { createMemoryProjectFiles } from '../../src/brain/adapters/memory/memory-project-files.ts'
import type { SessionDigest } from '../../src/engine/core/digest/session-digest.ts'
import { SessionDigestBuilder } from '../../src/engine/core/digest/session-digest-builder.ts'
import { fixedClock } from '../../src/engine/ports/clock.ts'
import { createMemoryFolderFiles } from '../../src/patterns/adapters/memory/memory-folder-files.ts'
import type { PatternWorkspace } from '../../src/patterns/app/pattern-workspace.ts'
import {
  DEFAULT_PATTERN_SETTINGS,
  type PatternSettings,
} from '../../src/patterns/core/pattern-settings.ts'

/** A workspace whose folders can be inspected, on `day` (YYYY-MM-DD), with memory on. */
export function memoryPatternWorkspace(
  day: string,
  options: {
    settings?: Partial<PatternSettings>
    memory?: Record<string, string>
    project?: Record<string, string>
  } = {},
) {
  const patterns = createMemoryFolderFiles()
  const project = createMemoryProjectFiles(options.project)
  const memory = createMemoryFolderFiles(options.memory)
  let clock = fixedClock(`${day}T12:00:00Z`)
  let running = Promise.resolve()
  const workspace: PatternWorkspace = {
    projectDir: '/project',
    projectId: '0123456789abcdef',
    patternsDir: '/home/.claude/rem/patterns/0123456789abcdef',
    patterns,
    project,
    memory,
    memoryDir: '/home/.claude/projects/-project/memory',
    settings: { ...DEFAULT_PATTERN_SETTINGS, ...options.settings },
    get clock() {
      return clock
    },
    exclusive: (work) => {
      const next = running.then(work)
      running = next.then(
        () => undefined,
        () => undefined,
      )
      return next
    },
  }
  return {
    workspace,
    patterns,
    project,
    memory,
    /** Moves the workspace's clock to `next` (YYYY-MM-DD). */
    setDay(next: string) {
      clock = fixedClock(`${next}T12:00:00Z`)
    },
  }
}

/** One step of a crafted session: the agent speaks, runs a command, edits a file, or the user prompts. */
export type CraftedStep =
  | { say: string }
  | { run: string; output: string; error?: boolean }
  | { edit: string }
  | { prompt: string }

/** JSONL lines of a crafted Claude Code session on `day` (YYYY-MM-DD): a prompt, then `steps`. */
export function craftedSession(
  sessionId: string,
  prompt: string,
  steps: CraftedStep[],
  day = '2026-02-11',
): string[] {
  let counter = 0
  const uuid = () =>
    `${sessionId.slice(0, 8)}-0000-4000-8000-${String(++counter).padStart(12, '0')}`
  const base = (type: string) => ({
    type,
    uuid: uuid(),
    sessionId,
    cwd: '/project',
    timestamp: `${day}T10:${String(Math.min(59, counter)).padStart(2, '0')}:00Z`,
  })
  const user = (content: unknown) =>
    JSON.stringify({ ...base('user'), message: { role: 'user', content } })
  const assistant = (index: number, content: unknown[]) =>
    JSON.stringify({
      ...base('assistant'),
      message: { id: `m${index}`, role: 'assistant', content },
    })
  const lines = [user(prompt)]
  steps.forEach((step, index) => {
    if ('say' in step) {
      lines.push(assistant(index, [{ type: 'text', text: step.say }]))
      return
    }
    if ('prompt' in step) {
      lines.push(user(step.prompt))
      return
    }
    const id = `toolu_${sessionId.slice(0, 4)}_${index}`
    const call =
      'edit' in step
        ? {
            name: 'Edit',
            input: { file_path: `/project/${step.edit}`, old_string: 'a', new_string: 'b' },
          }
        : { name: 'Bash', input: { command: step.run } }
    const result =
      'edit' in step
        ? { content: `The file /project/${step.edit} has been updated.`, is_error: false }
        : { content: step.output, is_error: step.error === true }
    lines.push(assistant(index, [{ type: 'tool_use', id, ...call }]))
    lines.push(user([{ type: 'tool_result', tool_use_id: id, ...result }]))
  })
  return lines
}

/** The digest of crafted `lines`, as `patterns encode` reads a session (no budget to speak of). */
export function digestOfLines(lines: readonly string[]): SessionDigest {
  const first = JSON.parse(lines[0] ?? '{}') as { sessionId?: string }
  const sessionId = first.sessionId ?? 'session'
  const builder = new SessionDigestBuilder({ sessionId, maxTokens: 100_000 })
  builder.beginFile(`${sessionId}.jsonl`, 'main')
  for (const line of lines) builder.addRecord(JSON.parse(line))
  return builder.build()
}
