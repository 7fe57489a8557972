/**
 * What a chosen sentence opens for the others: its unit (so they no longer pay its speaker prefix)
 * and its date (no second header). Sentences are kept by position, grouped in typed arrays.
 */
import type { UnitOverheads } from './unit-overheads.ts'

/** The units and dates opened so far, and what a sentence costs given them. */
export class UnitOpenings {
  private readonly unitOf: Int32Array
  private readonly overheads: UnitOverheads
  /** Each unit's date as a small integer, -1 for none. */
  private readonly dateOfUnit: Int32Array
  private readonly byUnit: Groups
  private readonly byDate: Groups
  private readonly openUnit: Uint8Array
  private readonly openDate: Uint8Array

  /** `unitOf[at]` is the unit of the sentence at position `at`; `unitCount` bounds them. */
  constructor(unitOf: Int32Array, unitCount: number, overheads: UnitOverheads) {
    this.unitOf = unitOf
    this.overheads = overheads
    const dateIds = new Map<string, number>()
    this.dateOfUnit = new Int32Array(unitCount).fill(-1)
    for (let unit = 0; unit < unitCount; unit += 1) {
      const date = overheads.dates[unit]
      if (!date) continue
      if (!dateIds.has(date)) dateIds.set(date, dateIds.size)
      this.dateOfUnit[unit] = dateIds.get(date) as number
    }
    this.byUnit = groupPositions(unitOf, unitCount)
    this.byDate = groupPositions(
      unitOf.map((unit) => this.dateOfUnit[unit] as number),
      dateIds.size,
    )
    this.openUnit = new Uint8Array(unitCount)
    this.openDate = new Uint8Array(dateIds.size)
  }

  /** `sentenceCost` plus its unit's prefix and its date's header, each unless already open. */
  costOf(at: number, sentenceCost: number): number {
    const unit = this.unitOf[at] as number
    const date = this.dateOfUnit[unit] as number
    let cost = sentenceCost
    if (!this.openUnit[unit]) cost += this.overheads.prefixCost[unit] ?? 1
    if (date >= 0 && !this.openDate[date]) cost += this.overheads.headerCost[unit] ?? 0
    return cost
  }

  /**
   * Opens the unit and the date of the sentence at `at`, calling `fell` for every sentence whose
   * cost just fell: the unit's sentences in order, then the date's.
   */
  open(at: number, fell: (position: number) => void): void {
    const unit = this.unitOf[at] as number
    if (!this.openUnit[unit]) {
      this.openUnit[unit] = 1
      forEachMember(this.byUnit, unit, fell)
    }
    const date = this.dateOfUnit[unit] as number
    if (date >= 0 && !this.openDate[date]) {
      this.openDate[date] = 1
      forEachMember(this.byDate, date, fell)
    }
  }
}

/** Positions grouped by key: group k is members[start[k]] to members[start[k + 1] - 1]. */
interface Groups {
  start: Int32Array
  members: Int32Array
}

/** Positions 0..keys.length - 1 grouped by their key (-1: none), ascending within a group. */
function groupPositions(keys: Int32Array, keyCount: number): Groups {
  const start = new Int32Array(keyCount + 1)
  for (const key of keys) if (key >= 0) start[key + 1] = (start[key + 1] as number) + 1
  for (let key = 0; key < keyCount; key += 1)
    start[key + 1] = (start[key + 1] as number) + (start[key] as number)
  const next = start.slice(0, keyCount)
  const members = new Int32Array(start[keyCount] as number)
  keys.forEach((key, position) => {
    if (key < 0) return
    members[next[key] as number] = position
    next[key] = (next[key] as number) + 1
  })
  return { start, members }
}

function forEachMember(groups: Groups, key: number, visit: (position: number) => void): void {
  const end = groups.start[key + 1] as number
  for (let member = groups.start[key] as number; member < end; member += 1)
    visit(groups.members[member] as number)
}
