/** The date spellings sources send, read into the forms Tramita answers with. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { brasiliaInstantOfLocal, isoDayOf } from './format.ts';

test('brasiliaInstantOfLocal: a zone-less ISO wall time in Brasília, 0–9 decimals or none, becomes the instant with -03:00 and milliseconds', () => {
  assert.equal(brasiliaInstantOfLocal('2026-08-13T20:32:00.645'), '2026-08-13T20:32:00.645-03:00');
  assert.equal(brasiliaInstantOfLocal('2026-08-13T20:30:03.6'), '2026-08-13T20:30:03.600-03:00');
  assert.equal(brasiliaInstantOfLocal('2026-08-13T20:30:03.09'), '2026-08-13T20:30:03.090-03:00');
  assert.equal(brasiliaInstantOfLocal('2026-08-13T20:30:03'), '2026-08-13T20:30:03.000-03:00');
  assert.equal(brasiliaInstantOfLocal('2026-08-13T20:30'), '2026-08-13T20:30:00.000-03:00');
  assert.equal(brasiliaInstantOfLocal('2026-08-13T20:30:03.123456789'), '2026-08-13T20:30:03.123-03:00');
  assert.equal(Date.parse(brasiliaInstantOfLocal('2026-08-13T23:30:00')!), Date.parse('2026-08-14T02:30:00Z'), 'the same instant');
  for (const bad of [
    '13/08/2026 20:32:00',
    '2026-08-13',
    '2026-02-30T10:00:00',
    '2026-08-13T25:00:00',
    '2026-08-13T20:32:00Z',
    '2026-08-13T20:32:00.1234567890',
    null,
    5,
  ]) {
    assert.equal(brasiliaInstantOfLocal(bad), null, String(bad));
  }
});

test('isoDayOf: a real yyyy-mm-dd or null', () => {
  assert.equal(isoDayOf('2026-08-14'), '2026-08-14');
  for (const bad of ['14/08/2026', '2026-02-30', '2026-8-14', '', null, 20260814]) assert.equal(isoDayOf(bad), null, String(bad));
});
