import { describe, expect, it } from 'vitest';
import { renderConsentPage, renderErrorPage, renderSuccessPage } from '../../src/retailer/html/pages.js';
import { endpointProblem } from '../../src/retailer/endpoint.js';

describe('retailer pages and endpoint rule', () => {
  it('When the consent page names a merchant with markup, then it is escaped and there is exactly one form with Approve and Deny', () => {
    const html = renderConsentPage({
      merchantName: '<script>alert(1)</script>',
      channelName: 'A "quoted" & channel',
      state: 'st_x"y',
      action: '/_retailer/authorize',
    });
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain('value="st_x&quot;y"');
    expect(html.match(/<form/g)).toHaveLength(1);
    expect(html).toMatch(/<button[^>]*value="approve"[^>]*>Approve<\/button>/);
    expect(html).toMatch(/<button[^>]*value="deny"[^>]*>Deny<\/button>/);
    expect(renderSuccessPage({ merchantName: 'M&M', channelName: 'C' })).toContain('M&amp;M');
    expect(renderErrorPage({ message: '<b>' })).toContain('&lt;b&gt;');
  });

  it('When endpoints are checked, then retailer paths pass and escapes are refused', () => {
    for (const ok of ['orders/v0/orders', 'listings/2021-08-01/items/A1/SKU WITH SPACE', 'x/a..b']) expect(endpointProblem(ok)).toBeNull();
    for (const bad of ['', '..', 'a/../b', 'a/./b', '/orders', 'orders/', 'a//b', '//host/x', 'http://host', 'HTTPS:x', 'a\\b', 'a?b', 'a#b', 'a\u0000b']) {
      expect(endpointProblem(bad), bad).not.toBeNull();
    }
  });
});
