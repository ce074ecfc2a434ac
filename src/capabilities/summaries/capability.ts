/** AI case summaries (spec §4.3): request, status, read; written by a model or by the offline writer. */
import type { Capability } from '../../platform/capability.ts';
import type { Services } from '../../platform/services.ts';
import type { CaseParts } from '../processes/parts.ts';
import { summaryJob } from './job.ts';
import { summaryRoutes } from './routes.ts';
import { SummaryStore } from './store.ts';
import { modelWriter, offlineWriter, type SummaryWriter } from './writers.ts';

/** The model when one is connected (TRAMITA_SUMMARY_PROVIDER), else the offline writer. */
export function summaryWriter(s: Services): SummaryWriter {
  if (!s.sources.model) return offlineWriter();
  return modelWriter(s.sources.model, { maxInputTokens: s.config.summaryMaxInputTokens, maxOutputTokens: s.config.summaryMaxOutputTokens });
}

export function summariesCapability(s: Services, cases: CaseParts): Capability {
  const store = new SummaryStore(s.db, s.clock);
  const job = summaryJob({
    db: s.db,
    clock: s.clock,
    ledger: s.ledger,
    events: s.events,
    prices: s.prices,
    store,
    accounts: s.accounts,
    cases,
    writer: summaryWriter(s),
    freshMinutes: s.config.caseFreshMinutes,
    timeScale: s.config.devTimeScale,
  });
  return { name: 'summaries', routes: (app) => summaryRoutes(app, s, cases, store), jobs: [job], schedules: [] };
}
