/**
 * Typed events (issue 55 item 5): each kind's declaration (catalog.ts) types its emitter, checks the
 * data recorded, shapes what integrators get, and feeds the SDK's types. A payload that drifts from its
 * schema fails here and in every flow of the suite that emits it (payload-check.ts throws under tests).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHarness } from '../../../test/harness.ts';
import type { EventData as SdkEventData, TramitaEvent } from '../../../packages/sdk/src/index.ts';
import { EVENTS, type EventData } from './catalog.ts';
import { deliveredSchema } from './declare.ts';
import { EVENT_NAMES, LEGACY_NAMES } from './kinds.ts';
import { CHECKED, checkPayload, EventPayloadError, payloadProblems } from './payload-check.ts';

const h = await createHarness();
test.after(() => h.close());

const CNJ = '00012345620248260100';

test('a payload that drifts from its schema is a type error at the emitter and is refused where it is recorded, with nothing stored', async () => {
  const acc = await h.createAccount();
  const before = await h.services.db
    .selectFrom('domain_events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const wrong = h.services.db.transaction().execute((trx) =>
    h.services.events.record(trx, {
      kind: 'atualizacao_processo_concluida',
      numeroCnj: CNJ,
      tribunal: 'TJSP',
      accountId: acc.accountId,
      // @ts-expect-error a field the declaration does not have
      data: { numeroCnj: CNJ, tribunal: 'TJSP', novasMovimentacoe: 2 },
    }),
  );
  await assert.rejects(wrong, (err: Error) => err instanceof EventPayloadError && /novasMovimentacoe/.test(err.message));
  // A masked number where the declaration wants the 20 digits (a string: only the schema can tell).
  const masked = h.services.db.transaction().execute((trx) =>
    h.services.events.record(trx, {
      kind: 'nova_movimentacao',
      numeroCnj: CNJ,
      tribunal: 'TJSP',
      data: { numeroCnj: '0001234-56.2024.8.26.0100', tribunal: 'TJSP', movimentacoes: [] },
    }),
  );
  await assert.rejects(masked, (err: Error) => err instanceof EventPayloadError && /\/numeroCnj must match pattern/.test(err.message));
  const after = await h.services.db
    .selectFrom('domain_events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  assert.equal(Number(after.n), Number(before.n), 'the change and its event roll back together');
});

test('the recipients an emitter may name are the ones its kind declares', () => {
  type Recorded = Parameters<typeof h.services.events.record<'nova_movimentacao'>>[1];
  const movement: Recorded = { kind: 'nova_movimentacao', numeroCnj: CNJ, tribunal: null, data: { numeroCnj: CNJ, tribunal: null, movimentacoes: [] } };
  // @ts-expect-error nova_movimentacao reaches the case's subscribers only: no account of its own
  const withAccount: Recorded = { ...movement, accountId: 'acc_1' };
  assert.ok(withAccount);
  assert.deepEqual(EVENTS.nova_movimentacao.audience, { subscribers: true });
});

test('the check runs under the test runner, and only where asked elsewhere', () => {
  assert.equal(CHECKED, true, 'this file runs under node --test');
  const wrong = { mensagem: 1, contaId: 'acc', numeroCnj: null, tribunal: null };
  assert.deepEqual(payloadProblems('teste', wrong), ['/mensagem must be string']);
  assert.throws(() => checkPayload('teste', wrong), EventPayloadError);
  assert.doesNotThrow(() => checkPayload('teste', wrong, false));
});

test('every declaration: a closed payload, shapers that add fields of their own, unique names', () => {
  for (const kind of EVENT_NAMES) {
    const d = EVENTS[kind];
    assert.equal((d.payload as { additionalProperties?: unknown }).additionalProperties, false, `${kind}: the top level admits no undeclared field`);
    const own = Object.keys(d.payload.properties);
    for (const s of d.shape)
      for (const added of Object.keys(s.adds)) assert.ok(!own.includes(added), `${kind}: ${s.name} adds ${added}, which the emitter sends`);
    assert.ok(d.summary.length > 0);
  }
  const names = [...EVENT_NAMES, ...Object.values(LEGACY_NAMES)];
  assert.equal(new Set(names).size, names.length);
  assert.deepEqual(payloadProblems('teste', { mensagem: 'm', contaId: 'acc', numeroCnj: null, tribunal: null }), []);
});

test('integrators get the shape the kind declares: a movement event its newest movement, a case event its masked number', async () => {
  const acc = await h.createAccount();
  const data: EventData<'atualizacao_processo_concluida'> = { numeroCnj: CNJ, tribunal: 'TJSP', novasMovimentacoes: 0 };
  const id = await h.services.db
    .transaction()
    .execute((trx) =>
      h.services.events.record(trx, { kind: 'atualizacao_processo_concluida', numeroCnj: CNJ, tribunal: 'TJSP', accountId: acc.accountId, data }),
    );
  const row = await h.services.db.selectFrom('domain_events').select('data').where('id', '=', id).executeTakeFirstOrThrow();
  const stored = JSON.parse(row.data) as SdkEventData['atualizacao_processo_concluida'];
  assert.deepEqual(stored, {
    numeroCnj: '0001234-56.2024.8.26.0100',
    tribunal: 'TJSP',
    novasMovimentacoes: 0,
    numeroCnjDigitos: CNJ,
    processo: { numero_unico: '0001234-56.2024.8.26.0100', numeroCnj: '0001234-56.2024.8.26.0100', origem: 'TJSP' },
  });
  assert.deepEqual(
    EVENTS.nova_movimentacao.shape.map((s) => s.name),
    ['case', 'movement'],
  );
  assert.deepEqual(Object.keys(deliveredSchema(EVENTS.nova_movimentacao).properties).slice(-3), ['numeroCnjDigitos', 'processo', 'event_data']);
});

test("the SDK's union narrows an event's data by its name (its types are generated from the declarations: test/sdk-types.test.ts)", () => {
  const text = (e: TramitaEvent): unknown => {
    switch (e.event) {
      case 'nova_movimentacao':
        return e.data.event_data?.conteudo ?? e.data.movimentacoes[0]?.conteudo;
      case 'atualizacao_concluida':
      case 'atualizacao_processo_concluida':
        return e.data.motivo;
      default:
        return null;
    }
  };
  const body: TramitaEvent = {
    id: 'evt_1',
    event: 'nova_movimentacao',
    source: 'datajud',
    created_at: '2026-03-02T12:00:00.000Z',
    data: { numeroCnj: '0001234-56.2024.8.26.0100', tribunal: 'TJSP', movimentacoes: [{ id: 'm1', dataHora: 'x', data: '02/03/2026', conteudo: 'Conclusão' }] },
  };
  assert.equal(text(body), 'Conclusão');
});
