/** Operator commands over accounts, keys and credits. `--json` prints exactly one JSON object. */
import { formatReais } from '../platform/format.ts';
import { parseArgs } from 'node:util';
import type { ConfigError } from '../config.ts';
import { brlToCentavos } from '../platform/billing/brl.ts';
import type { Account } from '../platform/accounts/store.ts';
import { credit } from '../platform/billing/ledger.ts';
import { toBrl } from '../platform/billing/prices.ts';
import { INVITE_TTL_HOURS, InviteError, inviteUser } from '../capabilities/console/invite.ts';
import { auditOperator } from '../capabilities/console/operator-audit.ts';
import type { Services } from '../platform/services.ts';

/** The command line itself is wrong: exit 2 with the usage. */
export class UsageError extends Error {}
/** Well-formed, but names an account or key that does not exist (or is already revoked): exit 1. */
export class NotFoundError extends Error {}

/** Where a command writes its lines (the CLI's output stream). */
export type Print = (text: string) => void;

/** `--json`: exactly one JSON object; else the text for a person. */
function show(print: Print, json: boolean, value: unknown, text: string): void {
  print(json ? JSON.stringify(value) : text);
}

function view(a: Account) {
  return {
    id: a.id,
    name: a.name,
    plan: a.plan,
    status: a.status,
    sandbox: a.sandbox === 1,
    balance: toBrl(a.balance_centavos),
    balanceCentavos: a.balance_centavos,
    createdAt: a.created_at,
  };
}

function line(a: Account): string {
  return `${a.id}  ${a.status.padEnd(8)}  ${a.plan.padEnd(10)}  ${formatReais(a.balance_centavos).padStart(13)}  ${a.name}`;
}

function amount(raw: string | undefined, name: string): number {
  if (raw === undefined) throw new UsageError(`${name} is required`);
  try {
    return brlToCentavos(raw, name);
  } catch (e) {
    throw new UsageError((e as ConfigError).message);
  }
}

function one(positionals: string[], what: string): string {
  if (positionals.length !== 1) throw new UsageError(`expected ${what}`);
  return positionals[0];
}

async function mustGet(s: Services, id: string): Promise<Account> {
  const account = await s.accounts.get(id);
  if (!account) throw new NotFoundError(`no account ${id}`);
  return account;
}

export async function accountsCommand(s: Services, argv: string[], print: Print): Promise<number> {
  const [sub, ...args] = argv;
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: { name: { type: 'string' }, credits: { type: 'string' }, plan: { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  const json = values.json!;
  switch (sub) {
    case 'create': {
      if (!values.name?.trim()) throw new UsageError('--name is required');
      if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
      const plan = values.plan ?? s.prices.defaultPlan;
      if (!s.prices.hasPlan(plan))
        throw new UsageError(
          `unknown plan "${plan}" (plans: ${s.prices
            .plans()
            .map((p) => p.name)
            .join(', ')})`,
        );
      const centavos = values.credits === undefined ? 0 : amount(values.credits, '--credits');
      const account = await s.accounts.create({ name: values.name.trim(), plan });
      if (centavos > 0) await credit(s.db, s.clock, account.id, centavos, 'initial credits');
      const key = await s.accounts.issueKey(account.id);
      await auditOperator(s, { accountId: account.id, action: 'conta.criar', details: { plano: plan, creditosCentavos: centavos } });
      await auditOperator(s, { accountId: account.id, action: 'chave.criar', target: key.id, details: { prefixo: key.prefix } });
      const created = (await s.accounts.get(account.id))!;
      show(
        print,
        json,
        { account: view(created), apiKey: { id: key.id, prefix: key.prefix, key: key.key } },
        `account ${created.id} created (plan ${plan}, balance ${formatReais(created.balance_centavos)})\nAPI key (shown once, store it now): ${key.key}`,
      );
      return 0;
    }
    case 'list': {
      const accounts = await s.accounts.list();
      show(print, json, { accounts: accounts.map(view) }, accounts.length ? accounts.map(line).join('\n') : 'no accounts');
      return 0;
    }
    case 'show': {
      const account = await mustGet(s, one(positionals, 'ACCOUNT_ID'));
      const keys = await s.accounts.listKeys(account.id);
      show(
        print,
        json,
        { account: view(account), keys: keys.map((k) => ({ id: k.id, prefix: k.prefix, createdAt: k.created_at, revokedAt: k.revoked_at })) },
        [line(account), ...keys.map((k) => `  key ${k.id}  ${k.prefix}…  ${k.revoked_at ? `revoked ${k.revoked_at}` : 'active'}`)].join('\n'),
      );
      return 0;
    }
    case 'deactivate':
    case 'activate': {
      const id = one(positionals, 'ACCOUNT_ID');
      if (!(await s.accounts.setStatus(id, sub === 'activate' ? 'active' : 'inactive'))) throw new NotFoundError(`no account ${id}`);
      await auditOperator(s, { accountId: id, action: sub === 'activate' ? 'conta.ativar' : 'conta.desativar' });
      show(print, json, { account: view((await s.accounts.get(id))!) }, `account ${id} ${sub}d`);
      return 0;
    }
    default:
      throw new UsageError(`unknown accounts command "${sub ?? ''}"`);
  }
}

export async function keysCommand(s: Services, argv: string[], print: Print): Promise<number> {
  const [sub, ...args] = argv;
  const { values, positionals } = parseArgs({ args, allowPositionals: true, strict: true, options: { json: { type: 'boolean', default: false } } });
  const json = values.json!;
  switch (sub) {
    case 'create': {
      const account = await mustGet(s, one(positionals, 'ACCOUNT_ID'));
      const key = await s.accounts.issueKey(account.id);
      await auditOperator(s, { accountId: account.id, action: 'chave.criar', target: key.id, details: { prefixo: key.prefix } });
      show(
        print,
        json,
        { id: key.id, prefix: key.prefix, key: key.key, accountId: account.id },
        `key ${key.id} for ${account.id} (shown once, store it now):\n${key.key}`,
      );
      return 0;
    }
    case 'list': {
      const account = await mustGet(s, one(positionals, 'ACCOUNT_ID'));
      const keys = await s.accounts.listKeys(account.id);
      show(
        print,
        json,
        { keys: keys.map((k) => ({ id: k.id, prefix: k.prefix, createdAt: k.created_at, revokedAt: k.revoked_at })) },
        keys.map((k) => `${k.id}  ${k.prefix}…  ${k.revoked_at ? `revoked ${k.revoked_at}` : 'active'}`).join('\n') || 'no keys',
      );
      return 0;
    }
    case 'revoke': {
      const id = one(positionals, 'KEY_ID');
      const revoked = await s.accounts.revokeKey(id);
      if (!revoked) throw new NotFoundError(`no active key ${id}`);
      await auditOperator(s, { accountId: revoked.accountId, action: 'chave.revogar', target: id, details: { prefixo: revoked.prefix } });
      show(print, json, { id, revoked: true }, `key ${id} revoked`);
      return 0;
    }
    default:
      throw new UsageError(`unknown keys command "${sub ?? ''}"`);
  }
}

export async function creditsCommand(s: Services, argv: string[], print: Print): Promise<number> {
  const [sub, ...args] = argv;
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: { note: { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  if (sub !== 'add') throw new UsageError(`unknown credits command "${sub ?? ''}"`);
  if (positionals.length !== 2) throw new UsageError('expected ACCOUNT_ID AMOUNT_BRL');
  const centavos = amount(positionals[1], 'AMOUNT_BRL');
  if (centavos === 0) throw new UsageError('AMOUNT_BRL must be more than zero');
  const balance = await credit(s.db, s.clock, positionals[0], centavos, values.note ?? null);
  if (balance === undefined) throw new NotFoundError(`no account ${positionals[0]}`);
  await auditOperator(s, { accountId: positionals[0], action: 'creditos.adicionar', details: { valorCentavos: centavos, saldoCentavos: balance } });
  show(
    print,
    values.json!,
    { accountId: positionals[0], added: toBrl(centavos), balance: toBrl(balance), balanceCentavos: balance },
    `added ${formatReais(centavos)} to ${positionals[0]}; balance ${formatReais(balance)}`,
  );
  return 0;
}

/** `users invite ACCOUNT_ID EMAIL`: a one-time link to set a console password (also resets a forgotten one). */
export async function usersCommand(s: Services, argv: string[], print: Print): Promise<number> {
  const [sub, ...args] = argv;
  const { values, positionals } = parseArgs({ args, allowPositionals: true, strict: true, options: { json: { type: 'boolean', default: false } } });
  if (sub !== 'invite') throw new UsageError(`unknown users command "${sub ?? ''}"`);
  if (positionals.length !== 2) throw new UsageError('expected ACCOUNT_ID EMAIL');
  const [accountId, email] = positionals as [string, string];
  try {
    const invite = await inviteUser(s, accountId, email);
    show(
      print,
      values.json!,
      invite,
      `console invitation for ${invite.email} (one use, valid ${INVITE_TTL_HOURS} h, until ${invite.expiresAt}):\n${invite.link}`,
    );
    return 0;
  } catch (err) {
    if (err instanceof InviteError) throw err.kind === 'unknown_account' ? new NotFoundError(err.message) : new UsageError(err.message);
    throw err;
  }
}
