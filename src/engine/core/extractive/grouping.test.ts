import { describe, expect, it } from 'vitest'
import { DEFAULT_GROUP_THRESHOLD, groupSimilar } from './grouping.ts'

/** Statements with the theme each was written for (null: unrelated to all others). */
const LABELLED: [string, string | null][] = [
  ['Always run the tests before committing.', 'tests'],
  ['Run the test suite before every commit.', 'tests'],
  ['Tests must pass before you commit anything.', 'tests'],
  ['The staging database runs PostgreSQL 16.', 'staging'],
  ['Staging uses Postgres 16 for its database.', 'staging'],
  ['The tests run against PostgreSQL in CI.', null],
  ['I am becoming more patient with hard bugs.', 'patience'],
  ['I am learning to be patient when debugging hard bugs.', 'patience'],
  ['Never push directly to the main branch.', 'main'],
  ['Do not push to main directly; open a pull request.', 'main'],
  ['The user likes short answers without preamble.', 'answers'],
  ['Keep answers short, the user dislikes preamble.', 'answers'],
  ['Lunch is at noon on Fridays.', null],
  ['The API rate limit is 100 requests per minute.', null],
  ['Deploy with the release script, not by hand.', null],
]
const STATEMENTS = LABELLED.map(([text], index) => ({ id: `s${index}`, text }))
const themeOf = (id: string) => LABELLED[Number(id.slice(1))]?.[1]

describe('groupSimilar', () => {
  const groups = groupSimilar(STATEMENTS)

  it('never puts statements of different themes, or unrelated ones, in one group', () => {
    for (const group of groups) {
      const themes = new Set(group.members.map(themeOf))
      expect(themes.size, group.members.join(',')).toBe(1)
      expect(themes.has(null)).toBe(false)
    }
  })

  it('groups each pair of clear paraphrases at the default threshold', () => {
    const together = (left: string, right: string) =>
      groups.some((group) => group.members.includes(left) && group.members.includes(right))
    for (const [left, right] of [
      ['s0', 's1'],
      ['s3', 's4'],
      ['s6', 's7'],
      ['s8', 's9'],
      ['s10', 's11'],
    ]) {
      expect(together(left ?? '', right ?? ''), `${left} with ${right}`).toBe(true)
    }
    expect(DEFAULT_GROUP_THRESHOLD).toBe(0.4)
  })

  it('orders groups by first member, members in input order, and labels with a member', () => {
    const firsts = groups.map((group) =>
      STATEMENTS.findIndex((statement) => statement.id === group.members[0]),
    )
    expect(firsts).toEqual([...firsts].sort((left, right) => left - right))
    for (const group of groups) {
      expect(
        group.members.map((id) => STATEMENTS.find((statement) => statement.id === id)?.text),
      ).toContain(group.label)
    }
  })

  it('groups nothing at threshold 1 unless the texts say the same words', () => {
    expect(groupSimilar(STATEMENTS, 1)).toEqual([])
    const copy = { id: 'copy', text: 'Lunch is at noon on Fridays!' }
    expect(groupSimilar([...STATEMENTS, copy], 1)).toEqual([
      { label: 'Lunch is at noon on Fridays.', members: ['s12', 'copy'] },
    ])
  })

  it('finds the same groups for the input reversed', () => {
    const sets = (found: { members: string[] }[]) =>
      found.map((group) => [...group.members].sort()).sort()
    expect(sets(groupSimilar([...STATEMENTS].reverse()))).toEqual(sets(groups))
  })
})
