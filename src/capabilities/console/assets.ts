/**
 * The console's only two assets, served by Tramita itself (no external request): the style sheet
 * (readable on a phone, contrast ≥ 4.5:1, visible focus) and a small script that adds copy buttons and
 * asks before destructive actions. Every page works without the script.
 */
export const CONSOLE_CSS =
  `
:root { --tinta: #1a1f29; --fundo: #f6f7f9; --cartao: #fff; --borda: #c9ced6; --marca: #0b5cad; --ok: #1d6b34; --erro: #a1261b; --suave: #4a5261; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--tinta); background: var(--fundo); }
a { color: var(--marca); }
:focus-visible { outline: 3px solid #f2a900; outline-offset: 2px; }
.pular { position: absolute; left: -999px; } .pular:focus { left: 8px; top: 8px; background: #fff; padding: 8px; z-index: 9; }
.topo { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; padding: 10px 16px; background: var(--tinta); color: #fff; }
.marca { font-weight: 700; font-size: 1.15rem; } .conta { flex: 1; font-size: .9rem; color: #dfe3ea; }
.sair button { background: transparent; color: #fff; border: 1px solid #fff; }
nav ul { display: flex; flex-wrap: wrap; gap: 4px; list-style: none; margin: 0; padding: 8px 12px; background: #e6e9ee; }
nav a { display: block; padding: 6px 10px; border-radius: 6px; text-decoration: none; color: var(--tinta); }
nav a[aria-current="page"] { background: var(--marca); color: #fff; }
main { max-width: 1100px; margin: 0 auto; padding: 16px; }
h1 { font-size: 1.5rem; margin: 8px 0 16px; } h2 { font-size: 1.15rem; margin: 24px 0 8px; }
section, form.cartao, .cartao { background: var(--cartao); border: 1px solid var(--borda); border-radius: 8px; padding: 16px; margin: 0 0 16px; }
label { display: block; font-weight: 600; margin: 12px 0 4px; }
input[type=text], input[type=email], input[type=password], input[type=url], input[type=date], input:not([type]), select { width: ` +
  `100%; max-width: 520px; padding: 8px; border: 1px solid #8a93a3; border-radius: 6px; font: inherit; }
fieldset { border: 1px solid var(--borda); border-radius: 6px; margin: 12px 0; } legend { font-weight: 600; }
.opcoes label { display: inline-flex; gap: 6px; font-weight: 400; margin: 4px 12px 4px 0; }
button, .botao { display: inline-block; padding: 8px 14px; border: 0; border-radius: 6px; background: var(--marca); color: #fff; ` +
  `font: inherit; cursor: pointer; text-decoration: none; }
button.perigo { background: var(--erro); } button.secundario { background: #5b6474; }
.linha { display: flex; flex-wrap: wrap; gap: 8px; align-items: end; }
.linha label { margin-top: 0; }
.aviso { padding: 10px 12px; border-radius: 6px; } .aviso.ok { background: #e3f3e8; color: var(--ok); } .aviso.erro { background: #fbe7e5; color: var(--erro); }
.uma-vez { border: 2px solid #f2a900; }
.copiar { display: flex; gap: 8px; } .copiar input { font-family: ui-monospace, monospace; }
.tabela { overflow-x: auto; } table { border-collapse: collapse; width: 100%; background: var(--cartao); font-size: .92rem; }
caption { text-align: left; font-weight: 600; padding: 6px 0; } th, td { text-align: left; padding: 6px 8px; border-bottom: 1px ` +
  `solid var(--borda); vertical-align: top; }
code, .mono { font-family: ui-monospace, monospace; font-size: .88rem; word-break: break-all; }
.vazio, .dica { color: var(--suave); } .numeros { display: flex; flex-wrap: wrap; gap: 16px; }
.numeros div { background: var(--cartao); border: 1px solid var(--borda); border-radius: 8px; padding: 12px 16px; min-width: 180px; }
.numeros strong { display: block; font-size: 1.4rem; }
.grafico svg { width: 100%; height: auto; max-width: 900px; }
details { margin: 4px 0; } summary { cursor: pointer; }
pre { white-space: pre-wrap; word-break: break-all; background: #f0f2f5; padding: 8px; border-radius: 6px; font-size: .85rem; }
@media (max-width: 600px) { main { padding: 10px; } th, td { padding: 4px; } }
`;

export const CONSOLE_JS = `
document.addEventListener('click', (e) => {
  const copy = e.target.closest('[data-copiar]');
  if (copy) {
    const field = document.getElementById(copy.dataset.copiar);
    field.select();
    (navigator.clipboard ? navigator.clipboard.writeText(field.value) : Promise.reject()).then(
      () => { copy.textContent = 'Copiado'; },
      () => { document.execCommand('copy'); copy.textContent = 'Copiado'; });
  }
});
document.addEventListener('submit', (e) => {
  const ask = e.target.dataset.confirmar;
  if (ask && !window.confirm(ask)) e.preventDefault();
});
`;
