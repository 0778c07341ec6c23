import type { EntitlementsReadModel } from './ports/read-model.js';

/** What the read operations (tier, usage, `can`, upgrade context) work with. */
export interface ReadOperationsDeps {
  /** Cached tenant views (tier + usage record), never older than a write this replica knows of. */
  readonly reads: EntitlementsReadModel;
  readonly now: () => Date;
}
