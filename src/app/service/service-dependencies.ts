/** What every service use case works with: the stores, the model, time, ids and settings. */
import type { ServiceConfig } from '../../core/service/service-config.ts'
import type { Clock } from '../../ports/clock.ts'
import type { CpuWork } from '../../ports/cpu-work.ts'
import type { IdGenerator } from '../../ports/id-generator.ts'
import type { LanguageModel } from '../../ports/language-model.ts'
import type { ServiceStores } from '../../ports/service-stores.ts'

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
