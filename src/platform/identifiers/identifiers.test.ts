/**
 * Unit tests for the identifier parsers. Valid CPFs/CNPJs/CNJ numbers are generated here with an
 * independent implementation of each check-digit rule (not the module's own), besides the real
 * reference examples in reference/upstream/*.md.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../errors.ts';
import { COURTS } from '../courts/table.ts';
import {
  cnjCheckDigits,
  cnjCourtSigla,
  courtOfCnj,
  formatCnj,
  isValidCnj,
  parseCnj,
  parseCnjWithCourt,
  cnpjCheckDigits,
  cpfCheckDigits,
  isValidCnpj,
  isValidCpf,
  parseCnpj,
  parseCpf,
  parseCpfCnpj,
  isValidNup,
  nupCheckDigits,
  parseNup,
  parseOab,
  parseOabList,
  parseOabParts,
  UFS,
  ufOfStateTr,
} from './index.ts';

/** Asserts `fn` throws an ApiError with this code and status; returns it for further checks. */
function throwsApi(fn: () => unknown, code: string, status: number, messageMatch?: RegExp): ApiError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof ApiError, `expected ApiError, got ${String(e)}`);
    assert.equal(e.code, code);
    assert.equal(e.status, status);
    if (messageMatch) assert.match(e.message, messageMatch);
    return e;
  }
  assert.fail(`expected ${code}, nothing was thrown`);
}

// ---------------------------------------------------------------- CNJ

/** Res. 65 Anexo VIII computed in chunks with plain numbers (independent of the BigInt version). */
function anexoViiiDigits(n7: string, aaaa: string, j: string, tr: string, oooo: string): string {
  const r1 = Number(n7) % 97;
  const r2 = Number(`${r1}${aaaa}${j}${tr}`) % 97;
  const r3 = Number(`${r2}${oooo}00`) % 97;
  return String(98 - r3).padStart(2, '0');
}

/** A valid masked CNJ number for J.TR (sequential/year/origin fixed). */
function cnjFor(j: string, tr: string, n7 = '1234567', aaaa = '2024', oooo = '0001'): string {
  return `${n7}-${anexoViiiDigits(n7, aaaa, j, tr, oooo)}.${aaaa}.${j}.${tr}.${oooo}`;
}

const REAL_CNJ = [
  '0000832-35.2018.4.01.3202',
  '5019210-08.2021.4.04.7100',
  '0001100-32.2006.4.04.7113',
  '07223914020178070001',
  '00073039720138070015',
  '5004073-05.2025.4.04.7113',
  '5000898-79.2026.8.21.0090',
  '1057607-11.2024.8.26.0002',
];

test('CNJ: every real example of cnj-number.md §2 is valid and normalizes', () => {
  for (const n of REAL_CNJ) {
    const p = parseCnj(n);
    assert.equal(p.digits, n.replace(/\D/g, ''));
    assert.equal(p.masked, formatCnj(p.digits));
    assert.ok(isValidCnj(n), n);
    assert.ok(BigInt(p.digits.slice(0, 7) + p.digits.slice(9) + p.checkDigits) % 97n === 1n, 'ISO 7064 form');
  }
});

test('CNJ: fields of a parsed number', () => {
  assert.deepEqual(parseCnj('  1057607-11.2024.8.26.0002\n'), {
    digits: '10576071120248260002',
    masked: '1057607-11.2024.8.26.0002',
    sequential: '1057607',
    checkDigits: '11',
    year: '2024',
    segment: '8',
    tribunal: '26',
    origin: '0002',
  });
  assert.equal(parseCnj('07223914020178070001').masked, '0722391-40.2017.8.07.0001');
});

test('CNJ: BigInt check digits equal the chunked Anexo VIII computation on random numbers', () => {
  let seed = 42;
  const rnd = (digits: number) => {
    let s = '';
    for (let i = 0; i < digits; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      s += (seed % 10).toString();
    }
    return s;
  };
  for (let i = 0; i < 1000; i++) {
    const [n7, aaaa, j, tr, oooo] = [rnd(7), rnd(4), rnd(1), rnd(2), rnd(4)];
    assert.equal(cnjCheckDigits(n7, aaaa, j, tr, oooo), anexoViiiDigits(n7, aaaa, j, tr, oooo));
  }
});

test('CNJ: a mutated check digit (or any mutated digit) is INVALID_CNJ 400', () => {
  const e = throwsApi(() => parseCnj('0000832-36.2018.4.01.3202', 'cnj'), 'INVALID_CNJ', 400, /check digits 36; MOD 97-10 gives 35/);
  assert.deepEqual(e.details, { field: 'cnj', value: '0000832-36.2018.4.01.3202' });
  throwsApi(() => parseCnj('10576071120248260003'), 'INVALID_CNJ', 400, /check digits/);
  throwsApi(() => parseCnj('1057608-11.2024.8.26.0002'), 'INVALID_CNJ', 400, /check digits/);
});

test('CNJ: bad lengths, letters, masks and types are INVALID_CNJ 400', () => {
  const cases: [unknown, RegExp][] = [
    ['', /empty/],
    ['   ', /empty/],
    ['1057607-11.2024.8.26.000', /19 digits; expected 20/],
    ['1057607-11.2024.8.26.00021', /21 digits; expected 20/],
    ['1057607112024826000', /19 digits/],
    ['105760711202482600021', /21 digits/],
    ['1057607-11.2024.8.26.000A', /contains "A"/],
    ['1057607-11.2024.8.26.0002x', /contains "X"|contains "x"/],
    ['1057607 11 2024 8 26 0002', /contains " "/],
    ['1057607-11/2024.8.26.0002', /contains "\/"/],
    ['1057607.11-2024.8.26.0002', /not masked/],
    ['10576071-1.2024.8.26.0002', /not masked/],
    ['1057607-11.2024.8.26.0002-', /not masked/],
    [JSON.parse('10576071120248260002'), /must be a string/], // a CNJ sent as a JSON number
    [null, /must be a string/],
  ];
  for (const [input, re] of cases) {
    const e = throwsApi(() => parseCnj(input, 'numero'), 'INVALID_CNJ', 400, re);
    assert.deepEqual(e.details, { field: 'numero', value: input });
  }
  assert.equal(isValidCnj('abc'), false);
});

test('CNJ: details omit field when none is given', () => {
  const e = throwsApi(() => parseCnj('123'), 'INVALID_CNJ', 400);
  assert.deepEqual(e.details, { value: '123' });
});

test('CNJ → court: each family maps as cnj-number.md §4 says', () => {
  const expected: [string, string, string][] = [
    ['1', '00', 'STF'],
    ['3', '00', 'STJ'],
    ['4', '01', 'TRF1'],
    ['4', '06', 'TRF6'],
    ['5', '00', 'TST'],
    ['5', '01', 'TRT1'],
    ['5', '15', 'TRT15'],
    ['5', '24', 'TRT24'],
    ['6', '00', 'TSE'],
    ['6', '01', 'TRE-AC'],
    ['6', '07', 'TRE-DF'],
    ['6', '26', 'TRE-SP'],
    ['6', '27', 'TRE-TO'],
    ['7', '00', 'STM'],
    ['7', '01', 'STM'],
    ['7', '12', 'STM'],
    ['8', '01', 'TJAC'],
    ['8', '03', 'TJAP'],
    ['8', '04', 'TJAM'],
    ['8', '07', 'TJDFT'],
    ['8', '13', 'TJMG'],
    ['8', '26', 'TJSP'],
    ['8', '27', 'TJTO'],
    ['9', '13', 'TJMMG'],
    ['9', '21', 'TJMRS'],
    ['9', '26', 'TJMSP'],
  ];
  for (const [j, tr, sigla] of expected) {
    const number = cnjFor(j, tr);
    const parsed = parseCnjWithCourt(number);
    assert.equal(parsed.court.sigla, sigla, number);
    assert.equal(courtOfCnj(parseCnj(number)).sigla, sigla);
  }
  assert.equal(parseCnjWithCourt('1057607-11.2024.8.26.0002').court.datajudAlias, 'api_publica_tjsp');
  assert.equal(parseCnjWithCourt(cnjFor('6', '07')).court.datajudAlias, 'api_publica_tre-dft');
});

test('CNJ → court: J=2, TR=90 and unknown combinations are COURT_NOT_FOUND 422, never a default', () => {
  const cases: [string, string, RegExp][] = [
    ['2', '00', /CNJ .*not a court/],
    ['4', '90', /CJF, a council/],
    ['5', '90', /CSJT, a council/],
    ['9', '01', /J\.TR 9\.01 names no court/],
    ['9', '00', /names no court/],
    ['8', '00', /names no court/],
    ['8', '28', /names no court/],
    ['8', '90', /names no court/],
    ['6', '28', /names no court/],
    ['6', '90', /names no court/],
    ['4', '00', /names no court/],
    ['4', '07', /names no court/],
    ['5', '25', /names no court/],
    ['7', '13', /names no court/],
    ['1', '01', /names no court/],
    ['3', '01', /names no court/],
    ['0', '00', /names no court/],
  ];
  for (const [j, tr, re] of cases) {
    const number = cnjFor(j, tr);
    const cnj = parseCnj(number); // well-formed and valid: the 400 path is not taken
    const e = throwsApi(() => courtOfCnj(cnj, 'cnj'), 'COURT_NOT_FOUND', 422, re);
    assert.deepEqual(e.details, { field: 'cnj', value: number, segment: j, tribunal: tr });
    throwsApi(() => parseCnjWithCourt(number), 'COURT_NOT_FOUND', 422);
  }
});

test('CNJ → court: the rules and courts.csv agree on all 92 courts, and nothing else maps', () => {
  for (const c of COURTS) assert.equal(cnjCourtSigla(c.j, c.tr), c.sigla, `${c.sigla} ${c.j}.${c.tr}`);
  const mapped = new Set<string>();
  let pairs = 0;
  for (let j = 0; j <= 9; j++) {
    for (let tr = 0; tr <= 99; tr++) {
      const sigla = cnjCourtSigla(String(j), String(tr).padStart(2, '0'));
      if (sigla === undefined) continue;
      pairs++;
      mapped.add(sigla);
    }
  }
  assert.equal(mapped.size, 92);
  assert.equal(pairs, 92 + 12); // + the 12 CJMs (J=7 TR 01..12) that resolve to STM
  assert.equal(cnjCourtSigla('8', '7'), undefined);
  assert.equal(cnjCourtSigla('x', '07'), undefined);
});

test('UFs: 27, alphabetical by state name as TR codes', () => {
  assert.equal(UFS.length, 27);
  assert.equal(ufOfStateTr('01'), 'AC');
  assert.equal(ufOfStateTr('03'), 'AP');
  assert.equal(ufOfStateTr('04'), 'AM');
  assert.equal(ufOfStateTr('07'), 'DF');
  assert.equal(ufOfStateTr('26'), 'SP');
  assert.equal(ufOfStateTr('00'), undefined);
  assert.equal(ufOfStateTr('28'), undefined);
});

// ---------------------------------------------------------------- CPF / CNPJ

/** Textbook mod-11 check digits, written independently of the module. */
function refDv(chars: string, firstWeight: number, cnpj: boolean): number {
  let sum = 0;
  for (let i = 0; i < chars.length; i++) {
    const w = cnpj ? [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2].slice(13 - chars.length)[i] : firstWeight - i;
    sum += (chars.charCodeAt(i) - 48) * w;
  }
  return sum % 11 < 2 ? 0 : 11 - (sum % 11);
}
function makeCpf(base9: string): string {
  const d1 = refDv(base9, 10, false);
  return `${base9}${d1}${refDv(`${base9}${d1}`, 11, false)}`;
}
function makeCnpj(base12: string): string {
  const d1 = refDv(base12, 0, true);
  return `${base12}${d1}${refDv(`${base12}${d1}`, 0, true)}`;
}

test('CPF: generated valid CPFs parse, masked and bare; known example 529.982.247-25', () => {
  for (const base of ['123456789', '000000001', '987654321', '111444777', '529982247', '390533447', '100000000']) {
    const cpf = makeCpf(base);
    assert.equal(cpfCheckDigits(base), cpf.slice(9));
    const masked = `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;
    assert.deepEqual(parseCpfCnpj(cpf), { kind: 'cpf', value: cpf, masked });
    assert.deepEqual(parseCpfCnpj(` ${masked} `), { kind: 'cpf', value: cpf, masked });
    assert.ok(isValidCpf(masked) && !isValidCnpj(masked));
  }
  assert.equal(makeCpf('529982247'), '52998224725');
  assert.equal(parseCpf('529.982.247-25').value, '52998224725');
});

test('CPF: wrong check digits, repeated digits, letters, masks are INVALID_CPF_CNPJ 400', () => {
  const e = throwsApi(() => parseCpfCnpj('529.982.247-26', 'cpf_cnpj'), 'INVALID_CPF_CNPJ', 400, /check digits 26; mod 11 gives 25/);
  assert.deepEqual(e.details, { field: 'cpf_cnpj', value: '529.982.247-26' });
  for (const d of '0123456789') throwsApi(() => parseCpfCnpj(d.repeat(11)), 'INVALID_CPF_CNPJ', 400, /repeated-digit/);
  throwsApi(() => parseCpfCnpj('111.111.111-11'), 'INVALID_CPF_CNPJ', 400, /repeated-digit/);
  throwsApi(() => parseCpfCnpj('5299822472A'), 'INVALID_CPF_CNPJ', 400, /only digits/);
  throwsApi(() => parseCpfCnpj('529.982.24725'), 'INVALID_CPF_CNPJ', 400, /not masked as 000\.000\.000-00/);
  throwsApi(() => parseCpfCnpj('529982247-25'), 'INVALID_CPF_CNPJ', 400, /not masked/);
  throwsApi(() => parseCpf('11.222.333/0001-81'), 'INVALID_CPF_CNPJ', 400, /Expected a CPF/);
});

test('CNPJ: generated numeric CNPJs and known examples parse', () => {
  for (const base of ['112223330001', '000000000001', '123456780001', '999999990001', '603701710001']) {
    const cnpj = makeCnpj(base);
    assert.equal(cnpjCheckDigits(base), cnpj.slice(12));
    const masked = `${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-${cnpj.slice(12)}`;
    assert.deepEqual(parseCpfCnpj(cnpj), { kind: 'cnpj', value: cnpj, masked });
    assert.deepEqual(parseCpfCnpj(masked), { kind: 'cnpj', value: cnpj, masked });
    assert.ok(isValidCnpj(cnpj) && !isValidCpf(cnpj));
  }
  assert.equal(parseCnpj('11.222.333/0001-81').value, '11222333000181');
  assert.equal(parseCnpj('00.000.000/0001-91').value, '00000000000191'); // Banco do Brasil
});

test('CNPJ: alphanumeric 12.ABC.345/01DE-35 (check digits 3 and 5 confirmed by hand below)', () => {
  // Values (ASCII − 48): 1 2 A=17 B=18 C=19 3 4 5 0 1 D=20 E=21.
  // DV1: 1·5+2·4+17·3+18·2+19·9+3·8+4·7+5·6+0·5+1·4+20·3+21·2 = 459; 459 mod 11 = 8 → 11−8 = 3.
  // DV2: 1·6+2·5+17·4+18·3+19·2+3·9+4·8+5·7+0·6+1·5+20·4+21·3+3·2 = 424; 424 mod 11 = 6 → 11−6 = 5.
  assert.equal(cnpjCheckDigits('12ABC34501DE'), '35');
  assert.equal(makeCnpj('12ABC34501DE'), '12ABC34501DE35');
  const expected = { kind: 'cnpj', value: '12ABC34501DE35', masked: '12.ABC.345/01DE-35' };
  assert.deepEqual(parseCpfCnpj('12.ABC.345/01DE-35'), expected);
  assert.deepEqual(parseCpfCnpj('12.abc.345/01de-35'), expected);
  assert.deepEqual(parseCpfCnpj('12abc34501de35'), expected);
  assert.ok(isValidCnpj('12.ABC.345/01DE-35'));
  for (const base of ['AB1CD2EF3GH4', 'ZZZZZZZZZZZZ', '0000000000A1', 'A00000000000']) {
    assert.equal(parseCpfCnpj(makeCnpj(base).toLowerCase()).value, makeCnpj(base));
  }
  throwsApi(() => parseCpfCnpj('12.ABC.345/01DE-36'), 'INVALID_CPF_CNPJ', 400, /check digits 36; mod 11 gives 35/);
  throwsApi(() => parseCpfCnpj('12.ABC.345/01DE-3A'), 'INVALID_CPF_CNPJ', 400, /must be digits/);
});

test('CNPJ: repeated digits, bad masks, lengths and characters are INVALID_CPF_CNPJ 400', () => {
  for (const d of '0123456789') throwsApi(() => parseCpfCnpj(d.repeat(14)), 'INVALID_CPF_CNPJ', 400, /repeated-digit/);
  throwsApi(() => parseCpfCnpj('00.000.000/0000-00'), 'INVALID_CPF_CNPJ', 400, /repeated-digit/);
  throwsApi(() => parseCpfCnpj('11.222.333/0001-82'), 'INVALID_CPF_CNPJ', 400, /check digits 82; mod 11 gives 81/);
  throwsApi(() => parseCpfCnpj('11222333/0001-81'), 'INVALID_CPF_CNPJ', 400, /not masked as 00\.000\.000\/0000-00/);
  throwsApi(() => parseCpfCnpj('1122233300018'), 'INVALID_CPF_CNPJ', 400, /13 characters without punctuation; expected 11 \(CPF\) or 14 \(CNPJ\)/);
  throwsApi(() => parseCpfCnpj('112223330001811'), 'INVALID_CPF_CNPJ', 400, /15 characters/);
  throwsApi(() => parseCpfCnpj('11 222 333 0001 81'), 'INVALID_CPF_CNPJ', 400, /contains " "/);
  throwsApi(() => parseCpfCnpj('12.ABÇ.345/01DE-35'), 'INVALID_CPF_CNPJ', 400, /contains "Ç"/);
  throwsApi(() => parseCpfCnpj(''), 'INVALID_CPF_CNPJ', 400, /empty/);
  throwsApi(() => parseCpfCnpj(11222333000181), 'INVALID_CPF_CNPJ', 400, /must be a string/);
  throwsApi(() => parseCnpj('529.982.247-25'), 'INVALID_CPF_CNPJ', 400, /Expected a CNPJ/);
});

// ---------------------------------------------------------------- OAB

test('OAB: every accepted spelling gives SP123456', () => {
  const spellings = [
    'SP123456',
    'SP 123456',
    'SP-123456',
    'SP/123456',
    '123456/SP',
    '123456-SP',
    '123.456/SP',
    'OAB/SP 123.456',
    'OAB SP 123456',
    'OAB/SP123456',
    'OAB-SP 123456',
    'OAB: SP 123456',
    '123456SP',
    '123456 SP',
    'OAB/SP nº 123.456',
    'sp123456',
    'oab/sp 123.456',
    '123456/sp',
    '  SP 0123456  ',
    'SP 123.456',
  ];
  for (const s of spellings) assert.deepEqual(parseOab(s), { uf: 'SP', numero: '123456', canonical: 'SP123456' }, s);
});

test('OAB: suffix letters, leading zeros and short numbers', () => {
  const withA = { uf: 'SP', numero: '123456', suffix: 'A', canonical: 'SP123456A' };
  for (const s of ['123456-A/SP', 'SP123456A', 'SP 123456-A', '123456A/SP', '123.456-a/sp', 'OAB/SP 123.456-A', '123456 A SP']) {
    assert.deepEqual(parseOab(s), withA, s);
  }
  assert.equal(parseOab('RJ 12345-E').canonical, 'RJ12345E');
  assert.equal(parseOab('MG0001234').canonical, 'MG1234');
  assert.equal(parseOab('df 1').canonical, 'DF1');
  assert.equal(parseOab('RS 1234567').numero, '1234567');
  assert.equal(parseOab('1.234.567/PR').canonical, 'PR1234567');
  for (const uf of UFS) assert.equal(parseOab(`${uf}123`).uf, uf);
});

test('OAB: unknown UF, zero, too long, malformed are INVALID_OAB 400', () => {
  const cases: [unknown, RegExp][] = [
    ['XX123456', /unknown UF "XX"/],
    ['123456/BR', /unknown UF "BR"/],
    ['SP0', /zero/],
    ['SP 000.000', /zero/],
    ['SP12345678', /8 digits; expected at most 7/],
    ['123456', /expected a UF and a number/],
    ['SP', /expected a UF and a number/],
    ['SP12.34', /expected a UF and a number/],
    ['SP 123456 AB', /expected a UF and a number/],
    ['SP123456/RJ', /expected a UF and a number/],
    ['S P123456', /expected a UF and a number/],
    ['', /empty/],
    [123456, /must be a string/],
  ];
  for (const [input, re] of cases) {
    const e = throwsApi(() => parseOab(input, 'oab'), 'INVALID_OAB', 400, re);
    assert.deepEqual(e.details, { field: 'oab', value: input });
  }
});

test('OAB: parseOabParts for separate UF and number fields', () => {
  assert.deepEqual(parseOabParts('sp', '123.456'), { uf: 'SP', numero: '123456', canonical: 'SP123456' });
  assert.deepEqual(parseOabParts(' SP ', 123456), { uf: 'SP', numero: '123456', canonical: 'SP123456' });
  assert.deepEqual(parseOabParts('SP', '0123456-a'), { uf: 'SP', numero: '123456', suffix: 'A', canonical: 'SP123456A' });
  const fields = { uf: 'oab_estado', numero: 'oab_numero' };
  let e = throwsApi(() => parseOabParts('XX', '123', fields), 'INVALID_OAB', 400, /UF "XX" is not one of the 27/);
  assert.deepEqual(e.details, { field: 'oab_estado', value: { uf: 'XX', numero: '123' } });
  e = throwsApi(() => parseOabParts('SP', '12a34', fields), 'INVALID_OAB', 400, /expected up to 7 digits/);
  assert.equal(e.details?.field, 'oab_numero');
  e = throwsApi(() => parseOabParts('SP', '12345678', fields), 'INVALID_OAB', 400, /8 digits/);
  assert.equal(e.details?.field, 'oab_numero');
  e = throwsApi(() => parseOabParts('SP', '0', 'oab'), 'INVALID_OAB', 400, /zero/);
  assert.equal(e.details?.field, 'oab');
  throwsApi(() => parseOabParts(undefined, '123'), 'INVALID_OAB', 400, /UF must be a string/);
  throwsApi(() => parseOabParts('SP', -5), 'INVALID_OAB', 400, /number must be a string or a non-negative integer/);
  throwsApi(() => parseOabParts('SP', 1.5), 'INVALID_OAB', 400, /non-negative integer/);
});

test('OAB: the letter forms the STF prints (reference/upstream/real/README.md §6) keep the letter as part of the registration', () => {
  const cases: [string, string][] = [
    ['29202-A/MA', 'MA29202A'],
    ['35109 A/PB', 'PB35109A'],
    ['1520 - A/RN', 'RN1520A'],
    ['23765A/AL', 'AL23765A'],
    ['76005A/GO', 'GO76005A'],
    ['A2372/AM', 'AM2372A'],
    ['A-2372/AM', 'AM2372A'],
    ['OAB 076166/RJ', 'RJ76166'],
    ['OAB 27882/PA', 'PA27882'],
  ];
  for (const [text, canonical] of cases) assert.equal(parseOab(text).canonical, canonical, text);
  assert.deepEqual(parseOab('A2372/AM'), { uf: 'AM', numero: '2372', suffix: 'A', canonical: 'AM2372A' });
  assert.notEqual(parseOab('29202-A/MA').canonical, parseOab('29202/MA').canonical, 'a lettered registration is another registration');
  throwsApi(() => parseOab('A2372-B/AM'), 'INVALID_OAB', 400, /letter both before and after/);
});

test('OAB: parseOabList reads every registration of an STF identificacao, once each, in order; what is not one comes apart', () => {
  const canon = (text: string) => parseOabList(text).oabs.map((o) => o.canonical);
  assert.deepEqual(canon('OAB 27882/PA'), ['PA27882']);
  assert.deepEqual(canon('OAB 076166/RJ'), ['RJ76166']);
  assert.deepEqual(canon("OAB's (31442/DF, 83471/MG, 261006/RJ, 518968/SP)"), ['DF31442', 'MG83471', 'RJ261006', 'SP518968']);
  assert.deepEqual(canon("OAB's (76005A/GO, 130660/PR, 66470/DF)"), ['GO76005A', 'PR130660', 'DF66470']);
  assert.deepEqual(canon("OAB's (29202-A/MA, 35109 A/PB, A2372/AM, 23765A/AL, 1520 - A/RN)"), ['MA29202A', 'PB35109A', 'AM2372A', 'AL23765A', 'RN1520A']);
  assert.deepEqual(canon('OABs: 1/SP; 1/SP; OAB/RJ 2'), ['SP1', 'RJ2']);
  assert.deepEqual(canon('OAB’s (12/DF)'), ['DF12']);
  assert.deepEqual(parseOabList("OAB's (31442/DF, CPF 123, 99/XX)"), { oabs: [parseOab('DF31442')], unread: ['CPF 123', '99/XX'] });
  assert.deepEqual(parseOabList(''), { oabs: [], unread: [] });
});

// ---------------------------------------------------------------- NUP

test('NUP: the reference examples and generated numbers are valid, masked or bare', () => {
  assert.deepEqual(parseNup('23037.001462/2021-65'), { digits: '23037001462202165', masked: '23037.001462/2021-65' });
  assert.deepEqual(parseNup('62000001753202556'), { digits: '62000001753202556', masked: '62000.001753/2025-56' });
  assert.equal(nupCheckDigits('230370014622021'), '65'); // worked example of nup.md §2: Σ=313 → 6, Σ'=358 → 5
  assert.ok(isValidNup(' 62000.001753/2025-56 '));
  // DV rule with units digit kept: remainder 0 → 11 → 1, remainder 1 → 10 → 0.
  const refDvNup = (s: string) => {
    let sum = 0;
    for (let i = 0; i < s.length; i++) sum += Number(s[i]) * (s.length + 1 - i);
    const r = 11 - (sum % 11);
    return r > 9 ? r - 10 : r;
  };
  for (const x15 of ['000000000000000', '123451234562024', '999999999999999', '000010000012019']) {
    const d1 = refDvNup(x15);
    const nup = `${x15}${d1}${refDvNup(`${x15}${d1}`)}`;
    assert.equal(parseNup(nup).digits, nup);
  }
});

test('NUP: wrong check digits, lengths, legacy formats, masks are INVALID_NUP 400', () => {
  const e = throwsApi(() => parseNup('23037.001462/2021-66', 'nup'), 'INVALID_NUP', 400, /check digits 66; mod 11 gives 65/);
  assert.deepEqual(e.details, { field: 'nup', value: '23037.001462/2021-66' });
  throwsApi(() => parseNup('23037.001462/21-65'), 'INVALID_NUP', 400, /15 digits; expected 17/);
  throwsApi(() => parseNup('23037.001462/21'), 'INVALID_NUP', 400, /13 digits/);
  throwsApi(() => parseNup('23037.001462/2021-DV'), 'INVALID_NUP', 400, /contains "D"/);
  throwsApi(() => parseNup('0000000.00000000/0000-00'), 'INVALID_NUP', 400, /21 digits/);
  throwsApi(() => parseNup('23037-001462/2021.65'), 'INVALID_NUP', 400, /not masked as 00000\.000000\/0000-00/);
  throwsApi(() => parseNup('230370014622021-65'), 'INVALID_NUP', 400, /not masked/);
  throwsApi(() => parseNup(''), 'INVALID_NUP', 400, /empty/);
  throwsApi(() => parseNup(JSON.parse('23037001462202165')), 'INVALID_NUP', 400, /must be a string/);
});
