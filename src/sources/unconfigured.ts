/** Sources for processes that never talk to upstreams (CLI commands): any call is a clear failure. */
import { SourceError, type Sources } from './ports.ts';

export const NO_SOURCES: Sources = {
  cases: {
    info: { name: 'none', sandbox: false },
    fetchCases: async () => { throw new SourceError('none', 'unavailable', 'no case source is configured in this process'); },
    fetchCase: async () => { throw new SourceError('none', 'unavailable', 'no case source is configured in this process'); },
  },
  details: null,
  close: async () => {},
};
