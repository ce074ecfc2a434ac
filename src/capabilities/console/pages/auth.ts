/**
 * Signing in and out, and setting a password through the operator's one-time link. An unknown e-mail,
 * a wrong password and a locked e-mail get the same answer (status and page) through the same path (a
 * hash is checked every time, the decoy's when no password may be checked), so the answers do not tell
 * which e-mails have a console account. Each attempt is counted before its hash (store.ts
 * reserveSignIn): five in a row without success lock the e-mail for 15 minutes, however many are sent
 * at once. Each address may try
 * SIGNIN_ATTEMPTS times per SIGNIN_WINDOW_MS, counted where the API's rate windows are: across every
 * API process on PostgreSQL (platform/http/shared-windows.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { csrfField, html, type Html } from '../html.ts';
import { auditSignedIn, field, redirect, sendPage, type ConsoleParts } from '../parts.ts';
import { hashPassword, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, passwordProblem, verifyPassword } from '../passwords.ts';
import { LOCKOUT_AFTER, LOCKOUT_MS } from '../store.ts';
import { endSession, origin, preSessionCsrf, preSessionCsrfOk, startSession } from '../session.ts';

const SIGNIN_ATTEMPTS = 30;
const SIGNIN_WINDOW_MS = 15 * 60_000;
/** Every refused attempt's answer, whatever the reason: it names the lock without telling whether it applies. */
const WRONG =
  `E-mail ou senha incorretos. Depois de ${LOCKOUT_AFTER} tentativas seguidas sem acerto, ` + `o e-mail fica bloqueado por ${LOCKOUT_MS / 60_000} minutos.`;

/** Verified when the e-mail is unknown, so that case costs what a wrong password does. */
let decoyHash: Promise<string> | undefined;
function decoy(): Promise<string> {
  decoyHash ??= hashPassword('senha-que-ninguem-tem');
  return decoyHash;
}

export function authPages(app: FastifyInstance, m: ConsoleParts): void {
  app.get('/entrar', async (req, reply) => signInPage(req, reply, preSessionCsrf(req, reply)));

  app.post('/entrar', async (req, reply) => {
    if (!preSessionCsrfOk(req)) return signInPage(req, reply, preSessionCsrf(req, reply), 'A página expirou: tente de novo.', 403);
    if (app.tramita.windows.count(`console-signin:${req.ip}`, Date.now(), SIGNIN_WINDOW_MS).count > SIGNIN_ATTEMPTS) {
      return signInPage(req, reply, preSessionCsrf(req, reply), 'Muitas tentativas deste endereço: espere alguns minutos.', 429);
    }
    const email = field(req, 'email') ?? '';
    const password = field(req, 'senha') ?? '';
    const attempt = await m.store.reserveSignIn(email);
    const user = attempt?.user;
    const hash = attempt?.allowed ? user?.password_hash : undefined;
    const ok = await verifyPassword(password.slice(0, MAX_PASSWORD_LENGTH), hash ?? (await decoy()));
    if (!user || !hash || !ok) {
      if (attempt) {
        const { user: who, allowed } = attempt;
        const details = allowed ? null : { bloqueado: true };
        await m.store.audit({ accountId: who.account_id, userId: who.id, actor: who.email, action: 'sessao.falha', details, origin: origin(req) });
      }
      return signInPage(req, reply, preSessionCsrf(req, reply), WRONG, 401);
    }
    const account = await m.s.accounts.get(user.account_id);
    if (account?.status !== 'active') return signInPage(req, reply, preSessionCsrf(req, reply), 'Esta conta está inativa: fale com quem opera o Tramita.', 403);
    startSession(req, reply, await m.store.openSession(user, origin(req)));
    await m.store.audit({ accountId: user.account_id, userId: user.id, actor: user.email, action: 'sessao.entrar', origin: origin(req) });
    return redirect(reply, '/console/visao-geral');
  });

  app.get<{ Params: { token: string } }>('/convite/:token', async (req, reply) => {
    const user = await m.store.invitation(req.params.token);
    if (!user) return sendPage(req, reply, { title: 'Link inválido' }, expiredLink(), 404);
    return invitationPage(req, reply, user.email, req.params.token, preSessionCsrf(req, reply));
  });

  app.post<{ Params: { token: string } }>('/convite/:token', async (req, reply) => {
    const user = await m.store.invitation(req.params.token);
    if (!user) return sendPage(req, reply, { title: 'Link inválido' }, expiredLink(), 404);
    const csrf = preSessionCsrf(req, reply);
    if (!preSessionCsrfOk(req)) return invitationPage(req, reply, user.email, req.params.token, csrf, 'A página expirou: tente de novo.', 403);
    const password = field(req, 'senha') ?? '';
    if (password !== (field(req, 'confirmacao') ?? ''))
      return invitationPage(req, reply, user.email, req.params.token, csrf, 'As duas senhas não são iguais.', 400);
    const problem = passwordProblem(password, user.email);
    if (problem) return invitationPage(req, reply, user.email, req.params.token, csrf, problem, 400);
    const accepted = await m.store.acceptInvitation(req.params.token, await hashPassword(password));
    if (!accepted) return sendPage(req, reply, { title: 'Link inválido' }, expiredLink(), 404);
    await m.store.audit({ accountId: accepted.account_id, userId: accepted.id, actor: accepted.email, action: 'usuario.senha_definida', origin: origin(req) });
    return redirect(reply, '/console/entrar', 'senha-definida');
  });

  // Signed in with a valid CSRF token by now: the plugin's gate refuses anything else.
  app.post('/sair', async (req, reply) => {
    const who = req.console!;
    await m.store.closeSession(who.token);
    await auditSignedIn(m, req, 'sessao.sair');
    endSession(req, reply);
    return redirect(reply, '/console/entrar');
  });

  app.post('/sair-de-todos', async (req, reply) => {
    const who = req.console!;
    const ended = await m.store.closeAllSessions(who.user.id);
    await auditSignedIn(m, req, 'sessao.sair_de_todas', { details: { sessoes: ended } });
    endSession(req, reply);
    return redirect(reply, '/console/entrar', 'sessoes-encerradas');
  });
}

function signInPage(req: FastifyRequest, reply: FastifyReply, csrf: string, error?: string, status = 200): FastifyReply {
  return sendPage(
    req,
    reply,
    { title: 'Entrar no console', flash: error ? { kind: 'erro', text: error } : undefined },
    html`
<form method="post" action="/console/entrar" class="cartao">
  ${csrfField(csrf)}
  <label for="email">E-mail</label>
  <input id="email" name="email" type="email" autocomplete="username" required>
  <label for="senha">Senha</label>
  <input id="senha" name="senha" type="password" autocomplete="current-password" required>
  <p><button type="submit">Entrar</button></p>
</form>
<p class="dica">Ainda sem senha? Peça a quem opera o Tramita um link de convite (<code>tramita users invite</code>).</p>`,
    status,
  );
}

function invitationPage(req: FastifyRequest, reply: FastifyReply, email: string, token: string, csrf: string, error?: string, status = 200): FastifyReply {
  return sendPage(
    req,
    reply,
    { title: 'Definir sua senha', flash: error ? { kind: 'erro', text: error } : null },
    html`
<form method="post" action="/console/convite/${token}" class="cartao">
  ${csrfField(csrf)}
  <p>Conta de <strong>${email}</strong>. Escolha uma senha de pelo menos ${MIN_PASSWORD_LENGTH} caracteres.</p>
  <input type="email" name="email" value="${email}" autocomplete="username" hidden readonly>
  <label for="senha">Nova senha</label>
  <input id="senha" name="senha" type="password" autocomplete="new-password" minlength="${MIN_PASSWORD_LENGTH}" maxlength="${MAX_PASSWORD_LENGTH}" required>
  <label for="confirmacao">Repita a senha</label>
  <input id="confirmacao" name="confirmacao" type="password" autocomplete="new-password" required>
  <p><button type="submit">Definir senha</button></p>
</form>`,
    status,
  );
}

function expiredLink(): Html {
  return html`<p>Este link de convite não vale mais: já foi usado, expirou ou foi substituído por outro. Peça um novo a quem opera o Tramita.</p>`;
}
