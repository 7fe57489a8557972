/**
 * The input checks every LanguageModel adapter shares, so a bad request gets the same error code
 * from the offline model and from an LLM, and an LLM is never paid to read a malformed request.
 */
import { SomnusError } from '../../core/errors.ts'
import { type Unit, UnitSchema } from '../../ports/language-model.ts'

const UnitsSchema = UnitSchema.array()

/** The units as the schema allows them; a bad unit is the caller's bug, named in the message. */
export function checkedUnits(units: Unit[]): Unit[] {
  const parsed = UnitsSchema.safeParse(units)
  if (parsed.success) return parsed.data
  throw new SomnusError(
    'INVALID_INPUT',
    `Units must each have a non-empty string id and a string text: ${parsed.error.issues[0]?.message ?? 'invalid'} at ${parsed.error.issues[0]?.path.join('.') ?? '?'}.`,
  )
}

/** A token budget as a whole number ≥ 0 (rounded down); USAGE for anything else. */
export function checkedBudget(budgetTokens: number): number {
  if (!Number.isFinite(budgetTokens) || budgetTokens < 0) {
    throw new SomnusError('USAGE', `Token budget must be a number ≥ 0 (got ${budgetTokens}).`)
  }
  return Math.floor(budgetTokens)
}
