import { configDefaults, defineConfig } from 'vitest/config'

/** Slow tests that kill processes with SIGKILL or start dozens at once: `*.stress.test.ts`. */
const STRESS_TESTS = ['src/**/*.stress.test.ts', 'test/**/*.stress.test.ts']

// `npm test` runs both projects; `npm test -- --project unit` leaves the stress tests out.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...STRESS_TESTS],
        },
      },
      {
        extends: true,
        // After the unit tests, so the load these tests create is theirs alone and their
        // lock-timing checks do not compete with a hundred other files for the cores.
        test: { name: 'stress', include: STRESS_TESTS, sequence: { groupOrder: 1 } },
      },
    ],
  },
})
