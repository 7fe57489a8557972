/**
 * What the creature dashboard shows (`somnus dashboard --mind DIR`), read from the creature and
 * never written: fatigue over time against the warning and the limit, dreams on a timeline,
 * observations by priority and age, and the priorities its dreams set.
 */
import type { Mind } from '../../mind/create-mind.ts'

/** Observation ages, in days before now, each bucket's upper bound (the last is open). */
const AGE_BUCKETS: readonly { label: string; days: number }[] = [
  { label: 'up to a day', days: 1 },
  { label: 'up to a week', days: 7 },
  { label: 'up to a month', days: 30 },
  { label: 'up to a year', days: 365 },
  { label: 'older', days: Number.POSITIVE_INFINITY },
]

/**
 * Observation priorities, most urgent first (seed 004's traffic lights, docs/design/origins.md).
 */
const PRIORITIES = ['RED', 'YLW', 'GRN'] as const

/** The creature dashboard's one endpoint: everything it draws. */
export async function mindOverview(mind: Mind, now: Date) {
  const [status, dreams, { observations }] = await Promise.all([
    mind.status(),
    mind.dreams(Number.MAX_SAFE_INTEGER),
    mind.observations(),
  ])
  // Fatigue as recorded: the actions counted at each dream (then none), and now.
  const fatigue = [
    ...dreams.flatMap((dream, index) => [
      { at: dream.t, actions: dream.actions, label: `dream ${index + 1} (${kindOf(dream)})` },
      { at: dream.t, actions: 0, label: `after dream ${index + 1}` },
    ]),
    { at: now.toISOString(), actions: status.actions, label: 'now' },
  ]
  // Ages count back from the newest observation: a creature's clock is its own (a replay of
  // last year's conversation is not "older than a year" on its own terms).
  const stamps = observations.map((item) => Date.parse(stampOf(item)))
  const newest = stamps.length > 0 ? Math.max(...stamps.filter(Number.isFinite)) : now.getTime()
  const ageDays = (date: string) => (newest - Date.parse(date)) / 86_400_000
  const byAge = AGE_BUCKETS.map((bucket, index) => {
    const lower = index === 0 ? Number.NEGATIVE_INFINITY : (AGE_BUCKETS[index - 1]?.days ?? 0)
    const inBucket = observations.filter((item) => {
      const age = ageDays(stampOf(item))
      return age > lower && age <= bucket.days
    })
    return {
      age: bucket.label,
      ...Object.fromEntries(
        PRIORITIES.map((priority) => [
          priority,
          inBucket.filter((item) => item.priority === priority).length,
        ]),
      ),
    }
  })
  return {
    location: status.location,
    status,
    fatigue,
    dreams: dreams.map((dream, index) => ({
      number: index + 1,
      id: dream.id,
      at: dream.t,
      kind: kindOf(dream),
      actions: dream.actions,
      messages: dream.messages,
      observations: dream.observations,
      reflection: dream.reflection,
      model: dream.model,
    })),
    observations_by_age: byAge,
    observations: observations
      .slice(-200)
      .reverse()
      .map((item) => ({
        date: item.date,
        time: item.time,
        priority: item.priority,
        text: item.text,
        line: item.line,
      })),
    observation_count: observations.length,
    priorities: dreams
      .filter((dream) => dream.priority.trim() !== '')
      .map((dream) => ({ at: dream.t, priority: dream.priority }))
      .reverse(),
  }
}

/** An observation's date and time as an ISO instant. */
function stampOf(item: { date: string; time: string }): string {
  return `${item.date}T${/^\d\d:\d\d$/.test(item.time) ? item.time : '00:00'}:00Z`
}

/** The dream's kind as the timeline shows it: deep, full, light or failed. */
function kindOf(dream: { kind: string; deep: boolean }): string {
  return dream.deep ? 'deep' : dream.kind
}
