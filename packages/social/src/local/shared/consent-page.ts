import type { DemoAccountName } from '../demo-accounts.js';

export type ConsentChoice = { account: DemoAccountName; label: string };

/**
 * The stand-in's consent page: one button per demo account, each re-sending the authorization
 * request with `as=<account>` (what tests pass directly to skip the page), and one to deny. No
 * favicon is asked for: the stand-in would answer its 404, an error in a browser test's console.
 */
export function consentPage(args: { providerName: string; actionPath: string; query: Record<string, string | undefined>; choices: ConsentChoice[]; scopes: string[] }): string {
  const hidden = Object.entries(args.query)
    .filter(([name, value]) => value !== undefined && name !== 'as' && name !== 'login_hint')
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value!)}">`)
    .join('');
  const buttons = args.choices
    .map(({ account, label }) => `<li><button type="submit" name="as" value="${escapeHtml(account)}">Continue as ${escapeHtml(label)}</button></li>`)
    .join('');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Local ${escapeHtml(args.providerName)}: authorize</title></head>
<body>
<main>
<h1>Local ${escapeHtml(args.providerName)}</h1>
<p>An application asks for: ${args.scopes.map((scope) => `<code>${escapeHtml(scope)}</code>`).join(', ')}.</p>
<p>This is a stand-in for development and tests. Pick the demo account to authorize as.</p>
<form method="get" action="${escapeHtml(args.actionPath)}">${hidden}
<ul>${buttons}</ul>
<button type="submit" name="as" value="deny">Cancel</button>
</form>
</main>
</body>
</html>
`;
}

export function errorPage(providerName: string, message: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Local ${escapeHtml(providerName)}: error</title></head>
<body><main><h1>Invalid authorization request</h1><p>${escapeHtml(message)}</p></main></body></html>
`;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
