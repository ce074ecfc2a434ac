/**
 * What `tramita serve` says on an empty database. With the sandbox running, a sandbox account with
 * credits is created and its key printed once, with first calls to try on the fictitious data.
 * Against the real upstreams nothing is created: a funded account and a working key printed to
 * stdout would end up in whatever collects the logs; the operator is told how to create one instead.
 */
import { formatReais } from '../platform/format.ts';
import { fileURLToPath } from 'node:url';
import { credit } from '../platform/billing/ledger.ts';
import type { Services } from '../platform/services.ts';
import type { OpenedSources } from './upstreams.ts';
import { importPrecatorios } from '../capabilities/precatorios/import.ts';
import { INVITE_TTL_HOURS, inviteUser } from '../capabilities/console/invite.ts';

/** Who the first start invites to the sandbox account's console. */
export const SANDBOX_CONSOLE_EMAIL = 'sandbox@tramita.local';

/** The fictitious precatório list shipped for the sandbox (and as an example of the import's format). */
export const SAMPLE_PRECATORIOS = fileURLToPath(new URL('../../config/samples/precatorios-exemplo.csv', import.meta.url));

/** The banner of a start: a first start's account and examples, or where things are on a database in use. */
export async function firstStart(s: Services, baseUrl: string, sources: OpenedSources): Promise<string> {
  if ((await s.accounts.count()) > 0) return returningBanner(baseUrl, sources);
  if (!sources.sandbox) return realUpstreamsBanner(baseUrl);
  const account = await s.accounts.create({ name: 'Sandbox', plan: s.prices.hasPlan('sandbox') ? 'sandbox' : s.prices.defaultPlan, sandbox: true });
  if (s.config.sandboxCreditsCentavos > 0) await credit(s.db, s.clock, account.id, s.config.sandboxCreditsCentavos, 'sandbox credits');
  const key = await s.accounts.issueKey(account.id);
  // The sample list (fictitious) makes /v1/precatorios answer on a fresh sandbox, as an imported list would.
  const sample = await importPrecatorios(s, SAMPLE_PRECATORIOS, { tribunal: 'TJSP', fonteUrl: 'config/samples/precatorios-exemplo.csv (fictício)' });
  const invite = await inviteUser(s, account.id, SANDBOX_CONSOLE_EMAIL, baseUrl);
  return [
    '',
    '  Tramita: a sandbox account was created on this empty database.',
    `  account  ${account.id}  (${formatReais(s.config.sandboxCreditsCentavos)} of credits)`,
    `  API key  ${key.key}`,
    `  The key is shown only this once: store it now (new keys: npx tramita keys create ${account.id}, or in the console).`,
    `  console  ${invite.link}`,
    `           sets the password of ${invite.email} (one use, ${INVITE_TTL_HOURS} h); then sign in at ${baseUrl}/console`,
    '',
    `  curl -s ${baseUrl}/v1/conta/saldo -H 'x-api-key: ${key.key}'`,
    ...sandboxExamples(baseUrl, key.key, sources),
    `  Precatórios: ${sample.aceitas} fictitious records of TJSP imported from the sample list (your own lists: npx tramita ` +
      `precatorios import FILE --tribunal SIGLA):`,
    `  curl -s '${baseUrl}/v1/precatorios?tribunal=TJSP' -H 'x-api-key: ${key.key}'`,
    `  Reference: ${baseUrl}/docs`,
    '',
  ].join('\n');
}

/** A later start: no key is ever printed again, so say how to get a new one (the sandbox's lost key included). */
function returningBanner(baseUrl: string, sources: OpenedSources): string {
  return [
    '',
    `  Tramita at ${baseUrl}${sources.sandbox ? ' (upstreams: the sandbox simulator, fictitious data)' : ''} · reference ${baseUrl}/docs ` +
      `· health ${baseUrl}/readyz`,
    '  A key is printed only when it is created. Lost it? npx tramita accounts list, then npx tramita keys create ACCOUNT_ID',
    `  Console: ${baseUrl}/console (a sign-in link for someone: npx tramita users invite ACCOUNT_ID EMAIL)`,
    '',
  ].join('\n');
}

function realUpstreamsBanner(baseUrl: string): string {
  return [
    '',
    '  Tramita: this database has no account yet, and the upstreams are the real ones (no sandbox), so',
    '  none was created. Create the first one, with its key, on this machine:',
    '',
    '    npx tramita accounts create --name "Escritório Exemplo" --credits 50 --json',
    '',
    `  then: curl -s ${baseUrl}/v1/conta/saldo -H 'x-api-key: trm_…'`,
    `  Reference: ${baseUrl}/docs`,
    '',
  ].join('\n');
}

/** The gazettes (STF, DJE eleitoral): last week's TSE editions, an STF search for a party, and how to see a monitor hear an extra edition. */
function gazetteExamples(baseUrl: string, key: string, sandbox: NonNullable<OpenedSources['sandbox']>): string[] {
  const today = Math.floor(sandbox.dataset.now() / 86_400_000);
  let parte: string | undefined;
  // A party named in full (the STF prints some only by initials, `N.S.A.F.`).
  for (let day = today; day > today - 7 && !parte; day--)
    parte = sandbox.stf.gazette
      .day(day)
      .map((i) => i.envolvidos[0]?.nome)
      .find((n) => n && !/^([A-Z]\.)+$/.test(n));
  return [
    "  Gazettes: last week's TSE editions (then GET …/edicoes/{id}/pdf), and the STF gazette searched for a party:",
    `  curl -s '${baseUrl}/v1/dje-eleitoral/edicoes?tribunal=TSE' -H 'x-api-key: ${key}'`,
    ...(parte ? [`  curl -s '${baseUrl}/v1/stf/publicacoes?parte=${encodeURIComponent(parte)}' -H 'x-api-key: ${key}'`] : []),
    `  An electoral publication naming an OAB, for a monitor to hear: curl -s -X POST ${sandbox.url}/_sandbox/dje/edicao-extra -d ` +
      `'{"tribunal":"TRE-SP","oab":"SP123456"}'`,
  ];
}

/** Warrants of a sandbox CPF that has one (CONSTA) and of one that has none (NADA_CONSTA). */
function warrantExamples(baseUrl: string, key: string, sandbox: NonNullable<OpenedSources['sandbox']>): string[] {
  const { comMandado, semMandado } = sandbox.warrants.examples();
  if (!comMandado || !semMandado) return [];
  return [
    "  Arrest warrants (the sandbox's fictitious provider): a CPF with one, and one without:",
    `  curl -s '${baseUrl}/v1/mandados?cpf=${comMandado}' -H 'x-api-key: ${key}'`,
    `  curl -s '${baseUrl}/v1/mandados?cpf=${semMandado}' -H 'x-api-key: ${key}'`,
  ];
}

/** An administrative process by NUP, a monitor of it, and how to make the simulator add a tramitação it hears. */
function administrativeExamples(baseUrl: string, key: string, sandbox: NonNullable<OpenedSources['sandbox']>): string[] {
  const { encontrado } = sandbox.protocolo.examples();
  return [
    "  An administrative process by NUP (the sandbox's Protocolo Integrado), a monitor of it, and a new tramitação for it to hear:",
    `  curl -s ${baseUrl}/v1/processos/administrativos/nup/${encontrado} -H 'x-api-key: ${key}'`,
    `  curl -s -X POST ${baseUrl}/v1/monitoramentos/processos-administrativos -H 'x-api-key: ${key}' -H 'content-type: ` +
      `application/json' -d '{"nup":"${encontrado}"}'`,
    `  curl -s -X POST ${sandbox.url}/_sandbox/protocolo/tramitacao -d '{"nup":"${encontrado}"}'`,
  ];
}

/** First calls to try on the sandbox's fictitious data, for the start-up banner. */
function sandboxExamples(baseUrl: string, key: string, sources: OpenedSources): string[] {
  if (!sources.sandbox) return [];
  const ex = sources.sandbox.dataset.examples();
  const cnj = Object.values(ex.numbers)[0];
  return [
    '',
    '  The upstreams are the sandbox simulator: fictitious cases, marked `meta.source.sandbox: true`.',
    ...(cnj
      ? [
          `  curl -s ${baseUrl}/v1/processos/cnj/${cnj} -H 'x-api-key: ${key}'`,
          '  Its AI summary: ask for one, follow its status until FINALIZADO, then read it:',
          `  curl -s -X POST ${baseUrl}/v1/processos/cnj/${cnj}/resumo-ia/solicitar-atualizacao -H 'x-api-key: ${key}'`,
          `  curl -s ${baseUrl}/v1/processos/cnj/${cnj}/resumo-ia/status -H 'x-api-key: ${key}'`,
          `  curl -s ${baseUrl}/v1/processos/cnj/${cnj}/resumo-ia -H 'x-api-key: ${key}'`,
        ]
      : []),
    ...(ex.document ? [`  curl -s '${baseUrl}/v1/processos?cpf_cnpj=${ex.document}' -H 'x-api-key: ${key}'`] : []),
    ...gazetteExamples(baseUrl, key, sources.sandbox),
    ...warrantExamples(baseUrl, key, sources.sandbox),
    ...administrativeExamples(baseUrl, key, sources.sandbox),
    `  More sample numbers: npx tramita sandbox`,
  ];
}
