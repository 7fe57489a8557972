/**
 * Schema-valid model replies built from a prompted model's own request: the stand-ins use them to
 * answer like a cooperative LLM, citing the unit ids that the request really contained.
 */

/** Which skill a system prompt asks for. */
export type PromptedTask =
  | 'summarize'
  | 'observations'
  | 'patterns'
  | 'groups'
  | 'reflect'
  | 'digest'

/** The task a prompted model's system prompt is for (keyed on phrases in `prompts.ts`). */
export function taskOf(system: string): PromptedTask {
  if (system.includes('faithful summary')) return 'summarize'
  if (system.includes('prioritized observations')) return 'observations'
  if (system.includes('reusable patterns')) return 'patterns'
  if (system.includes('repeat the same idea')) return 'groups'
  if (system.includes('Be honest')) return 'reflect'
  if (system.includes('session digest')) return 'digest'
  throw new Error(`unknown task for system prompt: ${system.slice(0, 80)}`)
}

/** The units listed in a user prompt (one JSON object per line). */
export function unitsIn(prompt: string): Array<{ id: string; text: string }> {
  return prompt
    .split('\n')
    .filter((line) => line.startsWith('{"id":'))
    .map((line) => JSON.parse(line) as { id: string; text: string })
}

/** A valid JSON reply for the request, citing its units. */
export function validReplyFor(system: string, prompt: string): string {
  const units = unitsIn(prompt)
  const ids = units.map((unit) => unit.id)
  const first = ids.slice(0, 1)
  switch (taskOf(system)) {
    case 'summarize':
      return JSON.stringify({ text: units.map((unit) => unit.text).join(' '), sources: ids })
    case 'observations':
      return JSON.stringify({
        observations: units.map((unit, index) => ({
          priority: index === 0 ? 'RED' : 'GRN',
          text: unit.text,
          time: '09:32',
          sources: [unit.id],
        })),
      })
    case 'patterns':
      return JSON.stringify({
        patterns: [
          {
            domain: 'testing',
            title: 'Stand-ins beat mocks',
            observation: 'Loopback servers catch protocol mistakes',
            details: 'Start node:http on 127.0.0.1 with port 0',
            context: 'Provider adapters',
            tags: ['testing', 'http'],
            sources: first,
          },
        ],
      })
    case 'groups':
      return JSON.stringify({ groups: [{ label: 'the same idea', members: ids.slice(0, 2) }] })
    case 'digest':
      return JSON.stringify(digestReply(units))
    case 'reflect':
      return JSON.stringify({
        reflection: 'Progress was steady; retries hid a flaky server.',
        priority: 'Fix the flaky server first.',
        sources: first,
      })
  }
}

/**
 * A digest reply as a cooperative model writes one: each unit ("decision: …", "change in src/: …")
 * back in its list, citing itself, with a summary citing the first unit.
 */
function digestReply(units: Array<{ id: string; text: string }>) {
  const reply: Record<string, unknown> & {
    changes: Array<{ area: string; items: unknown[] }>
  } = {
    summary: null,
    changes: [],
    commits: [],
    decisions: [],
    gotchas: [],
    done: [],
    open: [],
    preferences: [],
  }
  for (const unit of units) {
    const [label = '', ...rest] = unit.text.split(': ')
    const item = { text: rest.join(': '), sources: [unit.id] }
    if (label === 'summary') reply.summary = item
    else if (label.startsWith('change in ')) {
      const area = label.slice('change in '.length)
      const existing = reply.changes.find((entry) => entry.area === area)
      if (existing) existing.items.push(item)
      else reply.changes.push({ area, items: [item] })
    } else {
      const list = [label, `${label}s`].find((name) => Array.isArray(reply[name]))
      if (list) (reply[list] as unknown[]).push(item)
    }
  }
  return reply
}
