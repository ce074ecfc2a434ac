/**
 * API keys: create one with a name (its secret shown this once, with a copy button; refused past
 * TRAMITA_MAX_API_KEYS active ones, accounts/store.ts), list them with
 * prefix, name, creation and last use, revoke one. Revoking the last active key asks for an explicit
 * confirmation: the integrations stop at once, and the console (this sign-in) stays the way back in
 * to create another.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { csrfField, html, shownOnce, table, when, type Html } from '../html.ts';
import { auditSignedIn, field, redirect, sendPage, signedIn, type ConsoleParts } from '../parts.ts';
import { isApiError } from '../../../platform/errors.ts';
import { mensagem } from '../../../platform/errors-pt.ts';

const MAX_NAME = 60;

export function keysPage(app: FastifyInstance, m: ConsoleParts): void {
  app.get('/chaves', async (req, reply) => page(req, reply, m));

  app.post('/chaves', async (req, reply) => {
    const who = signedIn(req);
    const name = field(req, 'nome') ?? '';
    if (name === '' || name.length > MAX_NAME)
      return page(req, reply, m, { error: `Dê à chave um nome de 1 a ${MAX_NAME} caracteres (ex.: "servidor de produção").` }, 400);
    const key = await m.s.accounts.issueKey(who.account.id, name).catch((err: unknown) => {
      if (isApiError(err) && err.code === 'API_KEY_LIMIT_REACHED') return err;
      throw err;
    });
    if (isApiError(key)) return page(req, reply, m, { error: mensagem(key.code, key.details) }, key.status);
    await auditSignedIn(m, req, 'chave.criar', { target: key.id, details: { nome: name, prefixo: key.prefix } });
    return page(
      req,
      reply,
      m,
      { created: shownOnce('Sua nova chave', key.key, 'Guarde-a agora: ela não será mostrada de novo. Envie-a no cabeçalho x-api-key.') },
      201,
    );
  });

  app.post<{ Params: { id: string } }>('/chaves/:id/revogar', async (req, reply) => {
    const who = signedIn(req);
    const keys = await m.s.accounts.listKeys(who.account.id);
    const key = keys.find((k) => k.id === req.params.id && k.revoked_at === null);
    if (!key) return page(req, reply, m, { error: 'Chave não encontrada nesta conta (ou já revogada).' }, 404);
    const last = keys.filter((k) => k.revoked_at === null).length === 1;
    if (last && field(req, 'confirmar_ultima') !== 'sim') {
      return page(
        req,
        reply,
        m,
        { error: 'Esta é a última chave ativa: suas integrações deixarão de funcionar. Marque a confirmação para revogá-la mesmo assim.' },
        409,
      );
    }
    await m.s.accounts.revokeKey(key.id, who.account.id);
    await auditSignedIn(m, req, 'chave.revogar', { target: key.id, details: { nome: key.name, prefixo: key.prefix } });
    return redirect(reply, '/console/chaves', 'chave-revogada');
  });
}

async function page(
  req: FastifyRequest,
  reply: FastifyReply,
  m: ConsoleParts,
  extra: { created?: Html; error?: string } = {},
  status = 200,
): Promise<FastifyReply> {
  const who = signedIn(req);
  const keys = await m.s.accounts.listKeys(who.account.id);
  const active = keys.filter((k) => k.revoked_at === null).length;
  const csrf = who.session.csrf_token;
  return sendPage(
    req,
    reply,
    { title: 'Chaves de API', section: 'chaves', flash: extra.error ? { kind: 'erro', text: extra.error } : undefined },
    html`
${extra.created ?? ''}
<form method="post" action="/console/chaves" class="cartao">
  ${csrfField(csrf)}
  <h2>Nova chave</h2>
  <label for="nome">Nome (onde ela será usada)</label>
  <input id="nome" name="nome" maxlength="${MAX_NAME}" required>
  <p><button type="submit">Criar chave</button></p>
</form>
${table(
  'Chaves da conta',
  ['Nome', 'Prefixo', 'Criada', 'Último uso', 'Situação', ''],
  [...keys]
    .reverse()
    .map((k) => [
      k.name ?? html`<span class="dica">sem nome (criada pela linha de comando)</span>`,
      html`<code>${k.prefix}</code>`,
      when(k.created_at),
      when(k.last_used_at),
      k.revoked_at ? `revogada em ${when(k.revoked_at)}` : 'ativa',
      k.revoked_at ? '' : revokeForm(k.id, k.name ?? k.prefix, csrf, active === 1),
    ]),
  'Nenhuma chave ainda: crie a primeira acima.',
)}`,
    status,
  );
}

function revokeForm(id: string, label: string, csrf: string, last: boolean): Html {
  return html`<form method="post" action="/console/chaves/${id}/revogar" data-confirmar="Revogar a chave ${label}? A API passa a recusá-la.">
  ${csrfField(csrf)}
  ${last ? html`<label class="opcoes"><input type="checkbox" name="confirmar_ultima" value="sim"> é a última chave ativa</label>` : ''}
  <button type="submit" class="perigo" aria-label="Revogar a chave ${label}">Revogar</button>
</form>`;
}
