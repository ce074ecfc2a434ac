/**
 * Every log line every harness writes, in every test file, is read for what must never reach a log
 * (issues 19 and 29): an API key, a webhook signing secret, an Authorization value, a CPF, a CNPJ
 * (numeric or alphanumeric, bare or formatted). The harness logs
 * at `info` into this scanner even when a test does not capture its lines; a test file whose lines
 * held one of these fails at exit, naming the pattern and quoting the line with the value masked.
 */
import { isValidCnpj } from '../src/platform/identifiers/cpf-cnpj.ts';

const FORBIDDEN: [string, RegExp][] = [
  ['an API key', /trm_[0-9a-z]{10}_[0-9A-Za-z]{32}/],
  ['a webhook signing secret', /whsec_[A-Za-z0-9+/]{32}/],
  ['an Authorization header value', /"authorization":"(?!\[redacted\])/i],
  ['a CPF (formatted)', /(?<![\d.])\d{3}\.\d{3}\.\d{3}-\d{2}(?!\d)/],
];

/**
 * Eleven digits standing alone (not part of a longer number, CNJ numbers and timestamps, nor of a word:
 * generated ids such as `req_…` hold digit runs) that pass the CPF check digits.
 */
function cpfIn(line: string): string | undefined {
  for (const [digits] of line.matchAll(/(?<![0-9A-Za-z])\d{11}(?![0-9A-Za-z])/g)) {
    if (/^(\d)\1{10}$/.test(digits)) continue;
    const d = [...digits].map(Number);
    const check = (n: number) => {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += d[i]! * (n + 1 - i);
      const r = (sum * 10) % 11;
      return r === 10 ? 0 : r;
    };
    if (check(9) === d[9] && check(10) === d[10]) return digits;
  }
  return undefined;
}

/**
 * A CNPJ with valid check digits: formatted (`12.ABC.345/01DE-35`), fourteen digits standing alone, or
 * fourteen upper-case characters with a letter among them (the alphanumeric CNPJ; generated ids are
 * lower-case, so they do not match).
 */
function cnpjIn(line: string): string | undefined {
  const candidates = [
    ...line.matchAll(/(?<![0-9A-Za-z.])[0-9A-Z]{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}\/[0-9A-Z]{4}-\d{2}(?![0-9A-Za-z])/g),
    ...line.matchAll(/(?<![0-9A-Za-z])\d{14}(?![0-9A-Za-z])/g),
    ...line.matchAll(/(?<![0-9A-Za-z])(?=[0-9A-Z]{0,11}[A-Z])[0-9A-Z]{12}\d{2}(?![0-9A-Za-z])/g),
  ];
  return candidates.map(([c]) => c).find((c) => !/^(\d)\1{13}$/.test(c) && isValidCnpj(c));
}

const violations: string[] = [];

export function scanLogLine(line: string): void {
  for (const [what, pattern] of FORBIDDEN) {
    if (pattern.test(line)) violations.push(`${what}: ${line.replace(pattern, '«…»').slice(0, 300)}`);
  }
  const cpf = cpfIn(line);
  if (cpf) violations.push(`a CPF: ${line.replaceAll(cpf, '«…»').slice(0, 300)}`);
  const cnpj = cnpjIn(line);
  if (cnpj) violations.push(`a CNPJ: ${line.replaceAll(cnpj, '«…»').slice(0, 300)}`);
}

process.on('exit', () => {
  if (violations.length === 0) return;
  process.stderr.write(
    `\nlog scan: ${violations.length} log line(s) held what must never be logged:\n${violations
      .slice(0, 20)
      .map((v) => `  ${v}`)
      .join('\n')}\n`,
  );
  process.exitCode = 1;
});
