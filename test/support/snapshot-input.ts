/** Snapshot inputs for the snapshot tests: a small brain and one the size the hook must handle. */
import { parseKnowledge, renderNewKnowledge } from '../../src/brain/core/knowledge.ts'
import { seedScoringPolicy } from '../../src/brain/core/scoring/seed-scoring-policy.ts'
import {
  freshSleepState,
  type SleepState,
  SleepStateSchema,
} from '../../src/brain/core/sleep-state.ts'
import type { SnapshotInput } from '../../src/brain/core/snapshot/snapshot-types.ts'
import { parseTask, renderNewTask } from '../../src/brain/core/tasks.ts'

/** The instant every snapshot test is judged at. */
export const now = new Date('2026-03-01T12:00:00Z')
/** A core file with frontmatter. */
export const core = (name: string, body: string) =>
  `---\nname: ${name}\ntype: core\nsummary: The ${name}\nupdated: 2026-02-01\n---\n\n${body}\n`

/** A parsed task. */
export function task(slug: string, tags: string[], status = 'active') {
  const text = renderNewTask({
    slug,
    name: slug,
    why: `Because ${slug} matters.`,
    tags,
    feature: null,
    today: '2026-02-20',
  })
  return { ...parseTask(slug, text), status }
}

/** A parsed knowledge note. */
export function note(
  slug: string,
  options: { tags?: string[]; pinned?: boolean; created?: string; body?: string } = {},
) {
  const text = renderNewKnowledge({
    title: `Note ${slug}`,
    summary: null,
    tags: options.tags ?? [],
    pinned: options.pinned ?? false,
    body: options.body ?? `First paragraph of ${slug}.\n\nSecond paragraph of ${slug}.`,
    today: options.created ?? '2026-02-25',
  })
  return parseKnowledge(slug, text)
}

/** A small brain with one of everything; `overrides` and `state` replace parts of it. */
export function input(
  overrides: Partial<SnapshotInput> = {},
  state: Partial<SleepState> = {},
): SnapshotInput {
  return {
    now,
    budgetChars: 100_000,
    policy: seedScoringPolicy,
    head: {
      soul: core('Soul', 'I am careful.'),
      user: core('User', 'Likes tests.'),
      memory: core('Memory', '## Active Memory\n\n- Chose zod/mini.'),
    },
    extendedCore: [{ file: 'core/4.tech_stack.md', name: 'Tech Stack', summary: 'Node 20' }],
    tasks: [task('fix-auth', ['auth']), task('old-work', [], 'completed')],
    state: SleepStateSchema.parse({ ...freshSleepState(), ...state }),
    history: [],
    changelog: { rows: [{ date: '2026-02-27', type: 'fix', message: 'Refresh tokens early' }] },
    releases: {
      rows: [{ version: '0.1.0', date: '2026-02-26', summary: 'First', breaking: false }],
    },
    features: [
      {
        slug: 'login',
        id: 'feat_1',
        title: 'Login',
        status: 'active',
        updated: '2026-02-26',
        why: 'People log in.',
      },
    ],
    knowledge: [
      note('jwt', { tags: ['auth'] }),
      note('deploy', { pinned: true }),
      note('ancient', { created: '2025-01-01' }),
    ],
    ...overrides,
  }
}

/** A brain the size the hook must handle: 1,000 sessions, 300 bookmarks, 100 knowledge files. */
export function bigInput(budgetChars: number, headSize = 1): SnapshotInput {
  const long = (label: string) =>
    Array.from(
      { length: 30 * headSize },
      (_, i) => `- ${label} fact ${i}: ${'detail '.repeat(8)}`,
    ).join('\n')
  return input(
    {
      budgetChars,
      head: {
        soul: core('Soul', long('soul')),
        user: core('User', long('user')),
        memory: core('Memory', `## Active Memory\n\n${long('memory')}`),
      },
      tasks: Array.from({ length: 40 }, (_, i) => task(`task-${i}`, [`tag${i % 7}`])),
      knowledge: Array.from({ length: 100 }, (_, i) =>
        note(`note-${i}`, {
          tags: [`tag${i % 11}`],
          pinned: i % 25 === 0,
          created: i % 2 ? '2025-06-01' : '2026-02-20',
          body: `Paragraph ${i} ${'text '.repeat(60)}\n\n${'more '.repeat(200)}`,
        }),
      ),
      history: Array.from({ length: 5 }, (_, i) => ({
        date: `2026-02-0${i + 1}`,
        consolidated_at: null,
        summary: `Sleep ${i}`,
        debt_before: 9,
        debt_after: 0,
        sessions_processed: 4,
        bookmarks_processed: 2,
        session_ids: [],
        bookmark_ids: [],
      })),
    },
    {
      debt: 2000,
      sessions_since_last_sleep: 1000,
      sessions: Array.from({ length: 1000 }, (_, i) => ({
        session_id: `s${i}`,
        transcript_path: null,
        stopped_at: `2026-02-${String((i % 28) + 1).padStart(2, '0')}T10:00:00Z`,
        last_assistant_message: `Session ${i} did things. ${'words '.repeat(60)}`,
        change_count: i % 9,
        tool_count: i % 50,
        score: 2,
        task_slugs: [],
      })),
      bookmarks: Array.from({ length: 300 }, (_, i) => ({
        id: `bm_${i}`,
        message: `Bookmark ${i} about tag${i % 7} ${'note '.repeat(10)}`,
        salience: ((i % 3) + 1) as 1 | 2 | 3,
        created_at: '2026-02-20T00:00:00Z',
        session_id: null,
        task_slug: null,
      })),
      triggers: Array.from({ length: 20 }, (_, i) => ({
        id: `tr_${i}`,
        when: `tag${i}`,
        remind: `Remember ${i}`,
        source: null,
        created_at: '2026-02-01',
        fired_count: 0,
        max_fires: 3,
      })),
      knowledge_access: Object.fromEntries(
        Array.from({ length: 50 }, (_, i) => [
          `note-${i * 2}`,
          { last_accessed: i % 3 ? '2026-02-27' : '2025-12-01', count: i },
        ]),
      ),
    },
  )
}
