/** The settings' court codes, checked where sources are wired (issue 55 item 1): config.ts parses the lists, this says which are courts. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../config.ts';
import { checkCourtSettings } from './court-settings.ts';
import { connectSources } from './index.ts';

const refused = (env: Record<string, string>, message: RegExp) =>
  assert.throws(
    () => checkCourtSettings(loadConfig(env)),
    (e: unknown) => e instanceof ConfigError && message.test(e.message),
  );

test('a court without a known-open consultation, or no court at all, is refused with the setting named', () => {
  refused({ TRAMITA_CONSULTAS: 'TJSP,TJXX' }, /^TRAMITA_CONSULTAS must be all, none or siglas among .*TJXX/);
  refused({ TRAMITA_CONSULTA_TJXX_URL: 'https://exemplo.com.br' }, /^TRAMITA_CONSULTA_TJXX_URL: TJXX is not a court/);
  refused({ TRAMITA_PORTAL_TRIBUNAIS: 'TJBA,XPTO' }, /^TRAMITA_PORTAL_TRIBUNAIS must be all or court siglas .*"XPTO"/);
  assert.throws(() => connectSources(loadConfig({ TRAMITA_CONSULTAS: 'TJXX' })), ConfigError, 'wiring the sources checks them');
});

test('known courts pass', () => {
  checkCourtSettings(
    loadConfig({ TRAMITA_CONSULTAS: 'tjsp, TJAL', TRAMITA_PORTAL_TRIBUNAIS: 'TJBA,TRT2', TRAMITA_CONSULTA_TJAL_URL: 'https://exemplo.com.br' }),
  );
  checkCourtSettings(loadConfig({}));
});
