/** CNJ number → DataJud alias (cnj-number.md §4), STF refused before any request, TRE-DF probing (datajud.md §4). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { courtOfAlias, routeCnj } from './aliases.ts';
import { isDataJudFailure } from './errors.ts';
import { FakeDataJud, FakeIndexes, cnjNumber, fakeDoc } from './testing/fake-datajud.ts';
import { connector } from './testing/setup.ts';

test('numbers route to the alias of their court, one sample per segment', () => {
  const samples: Array<[string, string, string, string]> = [
    ['4', '04', 'api_publica_trf4', 'TRF4'],
    ['4', '01', 'api_publica_trf1', 'TRF1'],
    ['8', '07', 'api_publica_tjdft', 'TJDFT'],
    ['8', '26', 'api_publica_tjsp', 'TJSP'],
    ['5', '02', 'api_publica_trt2', 'TRT2'],
    ['5', '15', 'api_publica_trt15', 'TRT15'],
    ['6', '26', 'api_publica_tre-sp', 'TRE-SP'],
    ['9', '26', 'api_publica_tjmsp', 'TJMSP'],
    ['9', '13', 'api_publica_tjmmg', 'TJMMG'],
    ['3', '00', 'api_publica_stj', 'STJ'],
    ['5', '00', 'api_publica_tst', 'TST'],
    ['6', '00', 'api_publica_tse', 'TSE'],
    ['7', '00', 'api_publica_stm', 'STM'],
    ['7', '05', 'api_publica_stm', 'STM'], // a CJM: first instance of the JMU, indexed under stm
  ];
  for (const [j, tr, alias, sigla] of samples) {
    const numero = cnjNumber(1234, j, tr);
    const route = routeCnj(numero);
    assert.equal(route.alias, alias, `${j}.${tr}`);
    assert.equal(route.court.sigla, sigla);
    assert.equal(route.digits, numero);
  }
  const masked = '5019210-08.2021.4.04.7100';
  assert.equal(routeCnj(masked).digits, '50192100820214047100');
  assert.equal(courtOfAlias('api_publica_tre-df')?.sigla, 'TRE-DF');
  assert.equal(courtOfAlias('api_publica_nope'), undefined);
});

test('STF, the CNJ and the councils have no index: no_index, not retryable', () => {
  for (const [j, tr, who] of [
    ['1', '00', 'STF'],
    ['2', '00', 'CNJ'],
    ['4', '90', '4.90'],
    ['5', '90', '5.90'],
  ]) {
    assert.throws(
      () => routeCnj(cnjNumber(1, j, tr)),
      (err: unknown) => {
        assert.ok(isDataJudFailure(err));
        assert.equal(err.failure, 'no_index');
        assert.equal(err.retryable, false);
        assert.ok(err.message.includes(who), err.message);
        return true;
      },
    );
  }
  assert.throws(() => routeCnj('123'), /20/, 'a malformed number is the caller’s INVALID_CNJ');
});

test('a batch with an STF number fails with no_index before any request', async (t) => {
  const fake = await FakeDataJud.start(new FakeIndexes().create('api_publica_trf4').handler);
  const c = connector(fake.url);
  t.after(async () => {
    await c.close();
    await fake.close();
  });
  const stf = cnjNumber(42, '1', '00');
  await assert.rejects(c.fetchCases([cnjNumber(1, '4', '04'), stf]), (err: unknown) => isDataJudFailure(err) && err.failure === 'no_index');
  await assert.rejects(c.fetchCase(stf), (err: unknown) => isDataJudFailure(err) && err.failure === 'no_index');
  assert.equal(fake.requests.length, 0);
  assert.deepEqual(c.stats(), { requests: 0, retries: 0, failures: 0 });
});

test('TRE-DF: the official alias is probed first, the other spelling on no_index, and the answer is cached', async (t) => {
  const numero = cnjNumber(7, '6', '07');
  const indexes = new FakeIndexes().add('api_publica_tre-df', fakeDoc(numero, 'G1', 1_000, 'TRE-DF'));
  const fake = await FakeDataJud.start(indexes.handler);
  const c = connector(fake.url);
  t.after(async () => {
    await c.close();
    await fake.close();
  });
  const [a, b] = await Promise.all([c.fetchCases([numero]), c.fetchCase(numero)]);
  assert.equal(a.get(numero)?.tribunal, 'TRE-DF');
  assert.equal(b?.numeroCnj, numero);
  const probes = fake.requests.filter((r) => r.body?.size === 0);
  assert.deepEqual(
    probes.map((r) => r.alias),
    ['api_publica_tre-dft', 'api_publica_tre-df'],
    'one probe per spelling, shared by concurrent callers',
  );
  assert.ok(
    fake.requestsTo('api_publica_tre-dft').every((r) => r.body.size === 0),
    'only the probe went to the missing index',
  );
  const before = fake.requests.length;
  await c.fetchCases([numero]);
  assert.equal(fake.requests.length, before + 1, 'cached: no new probe');
  assert.equal(fake.requests.at(-1)?.alias, 'api_publica_tre-df');
});

test('TRE-DF: the official alias is kept when it answers; when neither exists the call fails with no_index and is probed again later', async (t) => {
  const numero = cnjNumber(8, '6', '07');
  const official = await FakeDataJud.start(new FakeIndexes().create('api_publica_tre-dft').handler);
  const neither = await FakeDataJud.start(new FakeIndexes().create('api_publica_trf4').handler);
  const c1 = connector(official.url);
  const c2 = connector(neither.url);
  t.after(async () => {
    await Promise.all([c1.close(), c2.close()]);
    await Promise.all([official.close(), neither.close()]);
  });
  assert.equal((await c1.fetchCases([numero])).size, 0);
  assert.deepEqual(
    official.requests.map((r) => r.alias),
    ['api_publica_tre-dft', 'api_publica_tre-dft'],
  );
  for (let i = 0; i < 2; i++) {
    await assert.rejects(c2.fetchCases([numero]), (err: unknown) => isDataJudFailure(err) && err.failure === 'no_index' && /tre-dft.*tre-df/.test(err.message));
  }
  assert.equal(neither.requests.length, 4, 'two probes per call: a missing index is not cached');
});
