/**
 * The account console (issue 18; spec §5.1 keys, §2.4 webhook, §6.5 delivery history): web pages at
 * /console for the people of an account, who sign in with a password set through the operator's
 * invitation (`tramita users invite`). Every change goes through the services the API uses and is
 * written to the account's audit log.
 */
import type { Capability } from '../../platform/capability.ts';
import type { Services } from '../../platform/services.ts';
import type { RadarParts } from '../radars/parts.ts';
import { consolePlugin } from './plugin.ts';
import { ConsoleStore } from './store.ts';

export function consoleCapability(s: Services, radars: RadarParts): Capability {
  const parts = { s, store: new ConsoleStore(s.db, s.clock), radars };
  return {
    name: 'console',
    routes: (app) => void app.register(consolePlugin(parts), { prefix: '/console' }),
    jobs: [],
    schedules: [],
  };
}
