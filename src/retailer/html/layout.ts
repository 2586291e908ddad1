import { escapeHtml } from '../../http/escape-html.js';

/** The simulated retailer's page frame; `body` must already be escaped HTML. */
export function retailerPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · Simulated retailer</title>
<style>
body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#1b1f23}
header{font-weight:700;color:#b35c00;margin-bottom:1.5rem}
.buttons{display:flex;gap:.75rem;margin-top:1.5rem}
button{font-size:1rem;padding:.6rem 1.4rem;border-radius:.3rem;border:1px solid #888;cursor:pointer}
button[value=approve]{background:#f0a30a;border-color:#b35c00}
.note{color:#57606a;font-size:.875rem;margin-top:2rem}
</style>
</head>
<body>
<header>Simulated retailer · Seller authorization</header>
<main>
${body}
</main>
<p class="note">This page is served by the Commerce Operations API sandbox. No real retailer account is involved.</p>
</body>
</html>
`;
}
