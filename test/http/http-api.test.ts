/**
 * The HTTP API's contract on both databases and both transports: in-process (app.request) and
 * over a real loopback socket (fetch).
 */
import { describe } from 'vitest'
import { describeHttpApi } from '../support/http-api-suite.ts'
import { openHttpService } from '../support/http-service.ts'
import { ENGINES, engineAvailable, POSTGRES_SKIP_REASON } from '../support/service-database.ts'

for (const engine of ENGINES) {
  describe.skipIf(!engineAvailable(engine))(
    engineAvailable(engine) ? engine : `${engine} (skipped: ${POSTGRES_SKIP_REASON})`,
    () => {
      describeHttpApi('in-process', () => openHttpService(engine, 'in-process'))
      describeHttpApi('over a socket', () => openHttpService(engine, 'socket'))
    },
  )
}
