/**
 * The one shape every port's contract suite takes, `testX({ name, make, skip })`, and the
 * `describe` they share: one title form, and one way to skip a suite that cannot run here.
 */
import { describe, it } from 'vitest'

/** What every contract suite is given (a suite may ask for more beside these). */
export interface ContractOptions<Subject> {
  /** The adapter under test, named in the suite's title. */
  name: string
  /** A subject to test; each suite says whether it calls this for every test or once. */
  make: () => Promise<Subject>
  /** Why the suite cannot run here (a server that is down): it is then skipped with this reason. */
  skip?: string | undefined
}

/** `describe('<port> contract: <name>')`, or, when `skip` says why, one skipped test saying so. */
export function describeContract(
  port: string,
  options: Pick<ContractOptions<unknown>, 'name' | 'skip'>,
  body: () => void,
): void {
  const title = `${port} contract: ${options.name}`
  const reason = options.skip
  if (reason === undefined) describe(title, body)
  else describe(title, () => it.skip(reason, () => {}))
}
