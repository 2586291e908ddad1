import { escapeHtml } from '../../http/escape-html.js';
import { retailerPage } from './layout.js';

/** What the consent page shows and where its single form posts. */
export interface ConsentPageInput {
  merchantName: string;
  channelName: string;
  state: string;
  /** Path the form posts to, e.g. /_retailer/authorize. */
  action: string;
}

/** The consent page: names merchant and channel, one form, Approve and Deny as the two submit buttons. */
export function renderConsentPage(input: ConsentPageInput): string {
  return retailerPage(
    'Authorize access',
    `<h1>Authorize access to your seller account</h1>
<p><strong>${escapeHtml(input.merchantName)}</strong> asks to connect the channel
<strong>${escapeHtml(input.channelName)}</strong> to your seller account. It will be able to read your orders,
catalog and inventory and to change your listings.</p>
<form method="post" action="${escapeHtml(input.action)}">
<input type="hidden" name="state" value="${escapeHtml(input.state)}">
<div class="buttons">
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny">Deny</button>
</div>
</form>`,
  );
}

/** The page after a successful callback: the channel is connected. */
export function renderSuccessPage(input: { merchantName: string; channelName: string }): string {
  return retailerPage(
    'Channel connected',
    `<h1>Channel connected</h1>
<p>The channel <strong>${escapeHtml(input.channelName)}</strong> of <strong>${escapeHtml(input.merchantName)}</strong>
is now connected. Relayed calls through it use the new authorization. You can close this page.</p>`,
  );
}

/** The page for every failure of the flow (denied, reused or expired code, unknown or expired state). */
export function renderErrorPage(input: { message: string }): string {
  return retailerPage(
    'Authorization failed',
    `<h1>Authorization failed</h1>
<p role="alert">${escapeHtml(input.message)}</p>`,
  );
}
