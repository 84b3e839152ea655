import { accountLabel, type SandboxAccount } from "./accounts.ts";
import { escapeHtml, htmlPage } from "./html.ts";
import type { OAuthClient } from "./oauth-client.ts";
import type { ShareableOrganization } from "./shareable-organizations.ts";

// The sandbox identity provider's pages: sign-in (pick an account, no
// password), consent (scopes and organizations to share) and the error page
// for requests that must not be redirected. Test hooks are element ids
// (`#oauth-account`, `#oauth-sign-in`, `#oauth-allow`, `#oauth-deny`, …) and
// the checkboxes' `name="organizationId"`.

export const SIGN_IN_PATH = "/oauth/authorize/sign-in";
export const DECISION_PATH = "/oauth/authorize/decision";

const SCOPE_DESCRIPTIONS: Record<string, string> = {
  "read:appointments": "See appointments",
  "read:facilities": "See facilities and their time zones",
  "read:providers": "See providers and their roles",
  "write:soap_notes": "Edit SOAP notes before sign-off",
  "read:patients": "See patient demographics",
  "read:eras": "See ERA remittance lines",
  "read:claims": "See claims",
  "read:patient_documents": "See patient documents",
  "read:faxes": "See faxes",
  "read:phone_numbers": "See phone numbers",
};

/** The form's binding to its pending request and browser. */
export interface FormContext {
  transaction: string;
  csrf: string;
  /** Where the user goes back to: the redirect URI's origin. */
  appOrigin: string;
}

function hiddenFields(form: FormContext): string {
  return `<input type="hidden" name="transaction" value="${escapeHtml(form.transaction)}">
<input type="hidden" name="csrf" value="${escapeHtml(form.csrf)}">`;
}

function errorBlock(error: string | null): string {
  return error === null ? "" : `<p id="oauth-error" class="error" role="alert">${escapeHtml(error)}</p>`;
}

export function signInPage(client: OAuthClient, accounts: readonly SandboxAccount[], form: FormContext, error: string | null = null): string {
  const options = accounts.map((account, index) => `<option value="${escapeHtml(account.id)}"${index === 0 ? " selected" : ""}>${escapeHtml(accountLabel(account))}</option>`).join("\n");
  const body = `<h1>Sign in to Clinic Data Service</h1>
<p>to continue to <strong>${escapeHtml(client.name)}</strong></p>
<p class="sandbox">Sandbox: pick an account. There is no password. An account is a person; each line names their role in each organization.</p>
${errorBlock(error)}
<form id="oauth-sign-in-form" method="post" action="${SIGN_IN_PATH}">
${hiddenFields(form)}
<label for="oauth-account">Account</label>
<select id="oauth-account" name="accountId" required>
${options}
</select>
<div class="actions">
<button type="submit" id="oauth-sign-in" class="primary">Sign in</button>
<button type="submit" id="oauth-cancel" class="secondary" formaction="${DECISION_PATH}" name="decision" value="deny" formnovalidate>Cancel</button>
</div>
</form>
<p class="fine">You will return to ${escapeHtml(form.appOrigin)}.</p>`;
  return htmlPage("Sign in to Clinic Data Service", body);
}

function scopeItem(scope: string, optional: boolean): string {
  const description = SCOPE_DESCRIPTIONS[scope] ?? "Access to this kind of clinic data";
  const note = optional ? ` <span class="hint">Optional: only in organizations whose installation granted it.</span>` : "";
  return `<li><code>${escapeHtml(scope)}</code> ${escapeHtml(description)}${note}</li>`;
}

function organizationItem(client: OAuthClient, entry: ShareableOrganization, checked: boolean): string {
  const id = entry.org.ehr.id;
  const inputId = `oauth-org-${id}`;
  const roles = entry.membership.roles.join(", ") || "no role";
  const granted = client.optionalScopes.filter((scope) => entry.org.installation.grantedPermissions.includes(scope));
  const optional = client.optionalScopes.length === 0 ? "" : ` · optional access granted: ${granted.length === 0 ? "none" : granted.join(", ")}`;
  return `<div class="org">
<input type="checkbox" id="${escapeHtml(inputId)}" name="organizationId" value="${escapeHtml(id)}"${checked ? " checked" : ""}>
<label for="${escapeHtml(inputId)}">${escapeHtml(entry.org.ehr.name)}<span class="hint">You: ${escapeHtml(roles)}${escapeHtml(optional)}</span></label>
</div>`;
}

export interface ConsentPageInput {
  client: OAuthClient;
  account: SandboxAccount;
  organizations: readonly ShareableOrganization[];
  /** Organizations ticked when the page opens. */
  checked: ReadonlySet<string>;
  form: FormContext;
  /** A link that restarts the request with `prompt=login`. */
  switchAccountHref: string;
  error: string | null;
}

export function consentTitle(client: OAuthClient): string {
  return `Allow ${client.name} to access your organizations`;
}

export function consentPage(input: ConsentPageInput): string {
  const { client, account, organizations, form } = input;
  const scopes = [...client.requiredScopes.map((scope) => scopeItem(scope, false)), ...client.optionalScopes.map((scope) => scopeItem(scope, true))].join("\n");
  const choice =
    organizations.length === 0
      ? `<p id="oauth-no-organizations" class="error">None of your organizations has an active installation of ${escapeHtml(client.name)}. Ask an administrator to install it, or use another account.</p>`
      : `<fieldset id="oauth-organizations">
<legend>Organizations to share</legend>
${organizations.map((entry) => organizationItem(client, entry, input.checked.has(entry.org.ehr.id))).join("\n")}
</fieldset>`;
  const allow = organizations.length === 0 ? "" : `<button type="submit" id="oauth-allow" class="primary" name="decision" value="allow">Allow</button>\n`;
  const body = `<h1>${escapeHtml(consentTitle(client))}?</h1>
<p>Signed in as <strong>${escapeHtml(account.displayName)}</strong> (${escapeHtml(account.email)}). <a id="oauth-switch-account" href="${escapeHtml(input.switchAccountHref)}">Use another account</a></p>
${errorBlock(input.error)}
<h2 id="oauth-scopes-heading">${escapeHtml(client.name)} will be able to</h2>
<ul id="oauth-scopes" class="scopes" aria-labelledby="oauth-scopes-heading">
${scopes}
</ul>
<p>It also learns your name, your email and your role in each organization you share.</p>
<form id="oauth-consent-form" method="post" action="${DECISION_PATH}">
${hiddenFields(form)}
${choice}
<div class="actions">
${allow}<button type="submit" id="oauth-deny" class="secondary" name="decision" value="deny">Deny</button>
</div>
</form>
<p class="fine">You will return to ${escapeHtml(form.appOrigin)}.</p>`;
  return htmlPage(escapeHtml(consentTitle(client)), body);
}

export function errorPage(title: string, message: string): string {
  const body = `<h1>${escapeHtml(title)}</h1>
<p id="oauth-error" class="error" role="alert">${escapeHtml(message)}</p>
<p>Go back to the app and start the sign-in again. If this keeps happening, the app's OAuth registration does not match its request.</p>`;
  return htmlPage(escapeHtml(title), body);
}
