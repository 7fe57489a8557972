/** An in-memory pattern workspace (seed 002) for use-case tests: memory folders, a fixed clock. */

import { createMemoryFolderFiles } from '../../src/adapters/memory/memory-folder-files.ts'
import { createMemoryProjectFiles } from '../../src/adapters/memory/memory-project-files.ts'
import type { PatternWorkspace } from '../../src/app/patterns/pattern-workspace.ts'
import {
  DEFAULT_PATTERN_SETTINGS,
  type PatternSettings,
} from '../../src/core/patterns/pattern-settings.ts'
import { fixedClock } from '../../src/ports/clock.ts'

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

/** JSONL lines of a crafted Claude Code session: a prompt, then `steps`, in order. */
export function craftedSession(
  sessionId: string,
  prompt: string,
  steps: ({ say: string } | { run: string; output: string; error?: boolean })[],
): string[] {
  let counter = 0
  const uuid = () =>
    `${sessionId.slice(0, 8)}-0000-4000-8000-${String(++counter).padStart(12, '0')}`
  const base = (type: string) => ({
    type,
    uuid: uuid(),
    sessionId,
    timestamp: '2026-02-11T10:00:00Z',
  })
  const lines = [JSON.stringify({ ...base('user'), message: { role: 'user', content: prompt } })]
  steps.forEach((step, index) => {
    if ('say' in step) {
      lines.push(
        JSON.stringify({
          ...base('assistant'),
          message: {
            id: `m${index}`,
            role: 'assistant',
            content: [{ type: 'text', text: step.say }],
          },
        }),
      )
      return
    }
    const id = `toolu_${sessionId.slice(0, 4)}_${index}`
    lines.push(
      JSON.stringify({
        ...base('assistant'),
        message: {
          id: `m${index}`,
          role: 'assistant',
          content: [{ type: 'tool_use', id, name: 'Bash', input: { command: step.run } }],
        },
      }),
    )
    lines.push(
      JSON.stringify({
        ...base('user'),
        message: {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: id,
              is_error: step.error === true,
              content: step.output,
            },
          ],
        },
      }),
    )
  })
  return lines
}

/** `lines` as the async iterable encode reads. */
export async function* linesOf(lines: readonly string[]): AsyncGenerator<string> {
  yield* lines
}
