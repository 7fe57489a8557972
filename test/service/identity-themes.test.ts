import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  labelledTheme,
  UNRELATED_STATEMENTS as UNRELATED,
} from '../support/becoming-paraphrases.ts'
import { type Answer, get, json } from '../support/http-api-requests.ts'
import { type HttpServiceFixture, openHttpService } from '../support/http-service.ts'
import { ENGINES, engineAvailable, POSTGRES_SKIP_REASON } from '../support/service-database.ts'

/** The case: the twelve ways of saying "tests before shipping" in the labelled set. */
const TESTS_BEFORE_SHIPPING = labelledTheme('tests before shipping')

/** "Now" for the runs: every handoff below is 200 days old, past the integration age. */
const AS_OF = '2026-03-01T00:00:00Z'
const CREATED_AT = '2025-08-13T00:00:00Z'

for (const engine of ENGINES) {
  describe.skipIf(!engineAvailable(engine))(
    engineAvailable(engine)
      ? `identity themes on ${engine}, over a socket`
      : `${engine} (skipped: ${POSTGRES_SKIP_REASON})`,
    () => {
      let api: HttpServiceFixture
      beforeAll(async () => {
        api = await openHttpService(engine, 'socket')
      }, 60_000)
      afterAll(async () => {
        await api?.close()
      })

      async function post(key: string, session: string, becoming: string): Promise<string> {
        const answer: Answer = await api.send(
          '/api/v1/handoffs',
          json(key, {
            session_id: session,
            created_at: CREATED_AT,
            experienced: `Session ${session}: worked on the release.`,
            becoming,
          }),
        )
        expect(answer.status).toBe(201)
        return (await answer.json()).handoff.handoff_id
      }

      async function run(key: string, jobType = 'identity_consolidation') {
        const answer: Answer = await api.send(
          '/api/v1/consolidation/run?wait=true',
          json(key, { job_type: jobType, as_of: AS_OF }),
        )
        expect(answer.status).toBe(200)
        return (await answer.json()).results as { job_type: string; details: never }[]
      }

      async function principles(key: string) {
        const answer: Answer = await api.send('/api/v1/principles?limit=100', get(key))
        return (await answer.json()).decisions as { decision_id: string; sources: string[] }[]
      }

      async function handoff(key: string, id: string) {
        const answer: Answer = await api.send(`/api/v1/handoffs/${id}`, get(key))
        return (await answer.json()).handoff
      }

      it("makes the issue's twelve paraphrases exactly one principle, joined by no unrelated statement", async () => {
        expect(TESTS_BEFORE_SHIPPING).toHaveLength(12)
        const key = api.keys.first
        const paraphrases: string[] = []
        for (const [index, text] of TESTS_BEFORE_SHIPPING.entries())
          paraphrases.push(await post(key, `ship-${index}`, text))
        const unrelated: string[] = []
        for (const [index, text] of UNRELATED.entries())
          unrelated.push(await post(key, `other-${index}`, text))

        const [identity] = await run(key, 'all')
        expect(identity?.details).toMatchObject({
          becoming_statements: 20,
          grouped: true,
          principles_created: 1,
        })
        const made = await principles(key)
        expect(made).toHaveLength(1)
        const sources = made[0]?.sources ?? []
        // Measured: 6 of the 12 (bench/README.md, identity-grouping); at least a theme's minimum.
        expect(sources.length).toBeGreaterThanOrEqual(5)
        for (const source of sources) expect(paraphrases).toContain(source)

        // "Integrated" stays honest: only what the principle took in, never by age alone.
        for (const source of sources) {
          const folded = await handoff(key, source)
          expect(folded).toMatchObject({
            compression_level: 'integrated',
            integrated_into: made[0]?.decision_id,
          })
        }
        for (const id of [...unrelated, ...paraphrases.filter((id) => !sources.includes(id))]) {
          const resting = await handoff(key, id)
          expect(resting).toMatchObject({ compression_level: 'quick_ref', integrated_into: null })
        }

        // A rerun makes no second principle of the same theme.
        const [again] = await run(key)
        expect(again?.details).toMatchObject({ principles_created: 0 })
        expect(await principles(key)).toHaveLength(1)
      })

      it('groups nothing until the tenant has 10 becoming statements, then makes the principle', async () => {
        const key = api.keys.second
        const twelve = TESTS_BEFORE_SHIPPING ?? []
        // Nine statements, six of them on one theme: below the seed's minimum, nothing is grouped.
        for (const index of [0, 2, 3, 8, 9, 11])
          await post(key, `ship-${index}`, twelve[index] ?? '')
        for (const [index, text] of UNRELATED.slice(0, 3).entries())
          await post(key, `other-${index}`, text)
        const [early] = await run(key)
        expect(early?.details).toMatchObject({
          becoming_statements: 9,
          grouped: false,
          principles_created: 0,
        })
        expect(await principles(key)).toHaveLength(0)

        // The tenth statement, unrelated to the theme, is what lets grouping run.
        await post(key, 'other-3', UNRELATED[3] ?? '')
        const [later] = await run(key)
        expect(later?.details).toMatchObject({
          becoming_statements: 10,
          grouped: true,
          principles_created: 1,
        })
        const made = await principles(key)
        expect(made).toHaveLength(1)
        expect(made[0]?.sources.length).toBeGreaterThanOrEqual(5)
      })
    },
  )
}
