/**
 * Precatórios (issue 17): a court's list imported through the CLI command (bad rows reported with their
 * line and reason, a re-import updating instead of duplicating, no creditor document stored in clear),
 * then listed through HTTP in the court's order with every filter, charged per page, empty pages free.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import ExcelJS from 'exceljs';
import { createHarness, json, type TestAccount } from '../../../test/harness.ts';
import { cnjCheckDigits, formatCnj } from '../../platform/identifiers/cnj.ts';
import { precatoriosCommand } from '../../cli/precatorios.ts';
import { SAMPLE_PRECATORIOS } from '../../cli/first-start.ts';
import { centavosOf } from './rows.ts';

const h = await createHarness({ env: { TRAMITA_RATE_LIMITS: 'search=100000/60s' } });
test.after(() => h.close());
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tramita-precatorios-'));
test.after(() => fs.rmSync(dir, { recursive: true, force: true }));

const cnj = (seq: string) => {
  const [year, j, tr, origin] = ['2019', '8', '19', '0001'];
  return formatCnj(`${seq}${cnjCheckDigits(seq, year, j, tr, origin)}${year}${j}${tr}${origin}`);
};
const CREDOR = '52998224725';

async function runImport(file: string, tribunal: string, extra: string[] = []) {
  const lines: string[] = [];
  const code = await precatoriosCommand(h.services, ['import', file, '--tribunal', tribunal, '--json', ...extra], (t) => lines.push(t));
  assert.equal(code, 0);
  return JSON.parse(lines[0]);
}

async function charged(acc: TestAccount): Promise<number> {
  const rows = await h.services.db.selectFrom('ledger').select('delta_centavos').where('account_id', '=', acc.accountId).where('kind', '=', 'debit').execute();
  return rows.length;
}

test('values in reais as courts write them become exact centavos', () => {
  assert.equal(centavosOf('R$ 1.234.567,89'), 123_456_789);
  assert.equal(centavosOf('1234567,8'), 123_456_780);
  assert.equal(centavosOf('1234567.89'), 123_456_789);
  assert.equal(centavosOf('1.234.567'), 123_456_700);
  assert.throws(() => centavosOf('mil reais'));
  assert.throws(() => centavosOf('-10,00'));
});

test("an import reports each bad line with its reason, stores the good ones once (a re-import updates), and never stores a creditor's document", async () => {
  const file = path.join(dir, 'tjrj.csv');
  fs.writeFileSync(
    file,
    [
      '\uFEFFordem,número,número do processo,entidade devedora,natureza,orçamento,situação,saldo atualizado,cpf',
      `"1º",2024.001,${cnj('0000001')},"Município Fictício de Itaguaí, RJ",Alimentar,2024,Pendente,"1.500,00",${CREDOR}`,
      `2,2024.002,${cnj('0000002')},Estado Fictício do Rio,Comum,2024,Pago,"R$ 20.000,50",`,
      `3,2025.003,,Estado Fictício do Rio,Comum,2025,Pendente,300.00,`,
      `4,2025.004,1234567-00.2019.8.19.0001,Estado Fictício do Rio,Comum,2025,Pendente,10,`,
      `5,2025.005,,Estado Fictício do Rio,Comum,2025,Pendente,muito,`,
      `6,2025.006,,Estado Fictício do Rio,Comum,2025,Pendente,10,11111111111`,
      `7,2025.007,,Estado Fictício do Rio,Comum,1500,Pendente,10,`,
      ``,
    ].join('\r\n'),
  );
  const report = await runImport(file, 'tjrj', ['--fonte-url', 'https://www3.tjrj.jus.br/PortalConhecimento/precatorio']);
  assert.deepEqual([report.tribunal, report.linhas, report.aceitas, report.rejeitadas], ['TJRJ', 7, 3, 4]);
  assert.deepEqual(
    report.rejeicoes.map((r: any) => r.linha),
    [5, 6, 7, 8],
  );
  assert.match(report.rejeicoes[0].motivo, /não é um número CNJ válido/);
  assert.match(report.rejeicoes[1].motivo, /valor "muito"/);
  assert.match(report.rejeicoes[2].motivo, /CPF\/CNPJ do credor inválido/);
  assert.match(report.rejeicoes[3].motivo, /ano do orçamento "1500"/);

  const stored = await h.services.db.selectFrom('precatorios').selectAll().where('tribunal', '=', 'TJRJ').execute();
  assert.equal(stored.length, 3);
  assert.ok(!JSON.stringify(stored).includes(CREDOR), 'the CPF is stored only as a fingerprint');
  assert.equal(stored.find((r) => r.numero === '2024.001')!.credor_hash, h.services.secrets.fingerprint(CREDOR));

  const again = await runImport(file, 'TJRJ');
  assert.equal(again.aceitas, 3);
  assert.equal((await h.services.db.selectFrom('precatorios').select('id').where('tribunal', '=', 'TJRJ').execute()).length, 3, 'no duplicates');
  const imports = await h.services.db.selectFrom('precatorio_imports').selectAll().where('tribunal', '=', 'TJRJ').execute();
  assert.deepEqual(
    imports.map((i) => [i.linhas, i.aceitas, i.rejeitadas, i.concluido_em !== null]),
    [
      [7, 3, 4, true],
      [7, 3, 4, true],
    ],
  );
});

test('an XLSX list (its first worksheet) imports like a CSV: numbers as Excel keeps them, a CPF that lost its leading zero', async () => {
  const file = path.join(dir, 'trf1.xlsx');
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Precatórios');
  ws.addRow(['Número do Precatório', 'Número da Ação Originária', 'Ente Devedor', 'Natureza', 'Ano', 'Valor', 'CPF']);
  ws.addRow(['2026.0001', cnj('0000101'), 'União Fictícia', 'Alimentar', 2026, 1500.5, Number('04417843058')]);
  ws.addRow(['2026.0002', cnj('0000102'), 'União Fictícia', 'Comum', 2026, 'R$ 2.000,00', null]);
  ws.addRow(['', '', '', '', 2026, 10, null]);
  wb.addWorksheet('Notas').addRow(['ignored']);
  await wb.xlsx.writeFile(file);
  const report = await runImport(file, 'TRF1');
  assert.deepEqual([report.linhas, report.aceitas, report.rejeitadas, report.rejeicoes[0]?.linha], [3, 2, 1, 4]);
  const rows = await h.services.db.selectFrom('precatorios').selectAll().where('tribunal', '=', 'TRF1').orderBy('numero').execute();
  assert.deepEqual(
    rows.map((r) => [r.numero, r.valor_centavos, r.ano_orcamento]),
    [
      ['2026.0001', 150_050, 2026],
      ['2026.0002', 200_000, 2026],
    ],
  );
  assert.equal(rows[0].credor_hash, h.services.secrets.fingerprint('04417843058'));
});

test("GET /v1/precatorios lists a court's records in its order, with value and source, filtered every way; charged per page, an empty page free", async () => {
  await runImport(SAMPLE_PRECATORIOS, 'TJSP');
  const acc = await h.createAccount({ credits: 1000 });
  const get = (qs: string) => h.inject({ method: 'GET', url: `/v1/precatorios?${qs}`, headers: acc.headers });
  const res = await get('tribunal=tjsp&limit=100');
  assert.equal(res.statusCode, 200, res.body);
  const items = json(res).data.items;
  assert.equal(items.length, 60);
  const order = items.map((p: any) => [p.anoOrcamento, p.ordem]);
  assert.deepEqual(
    order,
    [...order].sort((a: number[], b: number[]) => a[0] - b[0] || a[1] - b[1]),
    'budget year, then chronological order',
  );
  const first = items[0];
  assert.equal(first.valor.moeda, 'BRL');
  assert.equal(first.valor.valor, first.valorCentavos / 100);
  assert.match(first.valor.valor_formatado, /^R\$ /);
  assert.equal(first.fonte.nome, 'importacao');

  const rj = json(await get('tribunal=TJRJ&ente=itaguai')).data.items;
  assert.deepEqual(
    rj.map((p: any) => p.numero),
    ['2024.001'],
    'a fragment of the debtor, accents ignored',
  );
  assert.equal(rj[0].numeroProcesso, cnj('0000001'));
  assert.deepEqual(
    json(await get(`credor=${CREDOR.replace(/(\d{3})(\d{3})(\d{3})(\d{2})/, '$1.$2.$3-$4')}`)).data.items.map((p: any) => p.numero),
    ['2024.001'],
    'by creditor, through the fingerprint',
  );
  assert.deepEqual(
    json(await get(`numero_processo=${cnj('0000002')}`)).data.items.map((p: any) => p.situacao),
    ['Pago'],
  );
  assert.ok(json(await get('tribunal=TJRJ&ano=2025&situacao=pendente')).data.items.every((p: any) => p.anoOrcamento === 2025));
  const page1 = json(await get('tribunal=TJSP&limit=25'));
  const page2 = json(await get(`tribunal=TJSP&limit=25&cursor=${page1.data.pagination.nextCursor}`));
  assert.deepEqual(
    [...page1.data.items, ...page2.data.items].map((p: any) => p.id),
    items.slice(0, 50).map((p: any) => p.id),
  );
  const before = await charged(acc);
  assert.deepEqual(json(await get('tribunal=TJAC')).data.items, []);
  assert.equal(await charged(acc), before, 'an empty page is free');
  for (const [qs, code] of [
    ['tribunal=XX', 'UNKNOWN_COURT'],
    ['credor=123', 'INVALID_CPF_CNPJ'],
    ['numero_processo=1', 'INVALID_CNJ'],
    ['ano=1900', 'INVALID_PARAMETER'],
  ]) {
    assert.equal(json(await get(qs)).error.code, code, qs);
  }
});

test(
  "the DataJud harvest stores the sandbox's precatórios and RPVs (classes 1265/1266) of the configured courts once, and a second run asks only what " +
    'changed',
  async () => {
    const h2 = await createHarness({ env: { TRAMITA_PRECATORIOS_DATAJUD: 'TJSP,TRF3,TJMG', TRAMITA_RATE_LIMITS: 'search=100000/60s' } });
    try {
      const sandbox = h2.sources.sandbox!;
      const expected = sandbox.dataset.precatorios.filter((c) => ['TJSP', 'TRF3', 'TJMG'].includes(c.court.sigla));
      await h2.runJobs();
      const rows = await h2.services.db.selectFrom('precatorios').selectAll().where('fonte', '=', 'datajud').execute();
      assert.deepEqual(rows.map((r) => r.numero_processo).sort(), expected.map((c) => c.numero).sort());
      assert.ok(rows.every((r) => r.classe === 'Precatório' || r.classe === 'Requisição de Pequeno Valor'));
      assert.ok(
        rows.every((r) => r.situacao !== null && r.valor_centavos === null && r.credor_hash === null),
        'DataJud has no value nor creditor',
      );
      const marks = await h2.services.db.selectFrom('precatorio_harvests').selectAll().orderBy('tribunal').execute();
      assert.deepEqual(
        marks.map((m) => m.tribunal),
        ['TJMG', 'TJSP', 'TRF3'],
      );

      const acc = await h2.createAccount({ credits: 1000 });
      const sp = expected.find((c) => c.court.sigla === 'TJSP');
      if (sp) {
        const listed = json(await h2.inject({ method: 'GET', url: `/v1/precatorios?numero_processo=${sp.numero}`, headers: acc.headers })).data.items;
        assert.deepEqual(
          listed.map((p: any) => [p.tribunal, p.fonte.nome, p.numeroProcesso]),
          [['TJSP', 'datajud', formatCnj(sp.numero)]],
        );
      }
      await h2.services.db.updateTable('jobs').set({ run_at: h2.services.clock.now().toISOString() }).where('kind', '=', 'precatorios.datajud').execute();
      await h2.runJobs();
      assert.equal(
        (await h2.services.db.selectFrom('precatorios').select('id').where('fonte', '=', 'datajud').execute()).length,
        rows.length,
        'nothing duplicated',
      );
    } finally {
      await h2.close();
    }
  },
);

test(
  "the TJRJ harvest reads every debtor entity's order, both regimes, page by page, into records with value, order and source; again updates, never " +
    'duplicates; a failing source loses nothing',
  async () => {
    const h2 = await createHarness({
      captureLogs: true,
      env: { TRAMITA_PRECATORIOS_TJRJ: 'true', TRAMITA_DEV_TIME_SCALE: '1000', DJEN_TIMEOUT_MS: '300', TRAMITA_RATE_LIMITS: 'search=100000/60s' },
    });
    try {
      const sandbox = h2.sources.sandbox!;
      const expected = sandbox.tjrj.entities().flatMap((e) => sandbox.tjrj.list(e.IdEntidade));
      assert.ok(expected.length > 100, 'more than one page for the biggest entity');
      await h2.runJobs();
      const rows = await h2.services.db.selectFrom('precatorios').selectAll().where('fonte', '=', 'tjrj').execute();
      // `2019.01001-3 (2018.01001-7)` is precatório 2019.01001-3; `1º` is order 1; the saldo `R$ …` the value, null once paid.
      const numero = (p: Record<string, unknown>) => String(p.NumeroPrecatorio).replace(/ \(.*$/, '');
      assert.deepEqual(rows.map((r) => r.numero).sort(), expected.map(numero).sort());
      const first = expected[0];
      const row = rows.find((r) => r.numero === numero(first))!;
      const centavos = (reais: unknown) => (reais === null ? null : Number(String(reais).replace(/\D/g, '')));
      assert.deepEqual(
        [row.tribunal, row.ordem, row.ano_orcamento, row.natureza, row.situacao, row.valor_centavos, row.ente_devedor, row.numero_processo],
        ['TJRJ', 1, first.Orcamento, first.Natureza, first.SituacaoTratada, centavos(first.SaldoFormatado), first.EntidadeDevedora, null],
      );
      const paid = expected.find((p) => p.SaldoFormatado === null)!;
      assert.equal(rows.find((r) => r.numero === numero(paid))!.valor_centavos, null, 'paid: no saldo');

      const acc = await h2.createAccount({ credits: 1000 });
      const listed = json(
        await h2.inject({ method: 'GET', url: `/v1/precatorios?tribunal=TJRJ&ente=${encodeURIComponent('niterói')}&ano=2019&limit=3`, headers: acc.headers }),
      ).data.items;
      assert.deepEqual(
        listed.map((p: any) => [p.fonte.nome, p.enteDevedor, p.ordem]),
        [1, 2, 3].map((o) => ['tjrj', 'MUNICÍPIO DE NITERÓI', o]),
      );

      sandbox.faults.set({ upstream: 'tjrj', status: 503, times: 3 });
      await h2.services.db.updateTable('jobs').set({ run_at: h2.services.clock.now().toISOString() }).where('kind', '=', 'precatorios.tjrj').execute();
      await h2.runJobs();
      sandbox.faults.reset();
      assert.equal(
        (await h2.services.db.selectFrom('precatorios').select('id').where('fonte', '=', 'tjrj').execute()).length,
        rows.length,
        'nothing duplicated, nothing lost',
      );
    } finally {
      await h2.close();
    }
  },
);
