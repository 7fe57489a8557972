/** What every service use case works with: the stores, the model, time, ids and settings. */

import type { Clock } from '../../engine/ports/clock.ts'
import type { CpuWork } from '../../engine/ports/cpu-work.ts'
import type { IdGenerator } from '../../engine/ports/id-generator.ts'
import type { LanguageModel } from '../../engine/ports/language-model.ts'
import type { ServiceConfig } from '../core/service-config.ts'
import type { ServiceStores } from '../ports/service-stores.ts'

/** The service's injected world. */
export interface ServiceDependencies {
  stores: ServiceStores
  model: LanguageModel
  clock: Clock
  ids: IdGenerator
  config: ServiceConfig
  /** Worker threads for CPU work (big handoffs); absent, that work runs on the calling thread. */
  cpu?: CpuWork | undefined
}
