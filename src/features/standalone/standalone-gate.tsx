import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Fragment, useEffect, useId, useMemo, useState, type ReactNode } from "react";
import type { StandaloneSignInState } from "#contract/app-api/standalone.ts";
import type { HostContext } from "#contract/bridge/messages.ts";
import { finishPendingWrites, unsentTexts } from "#src/api/before-sign-out.ts";
import { setApiBridge } from "#src/api/bff-client.ts";
import { identityKey, switchCacheIdentity, type CacheIdentity } from "#src/api/cache-identity.ts";
import { forgetEverythingThisTabKeeps } from "#src/api/kept-drafts.ts";
import { startLiveEvents } from "#src/api/live-events.ts";
import { invalidateEveryRead, queryKeys } from "#src/api/query-keys.ts";
import { StandaloneLink } from "#src/bridge/standalone-link.ts";
import { Button } from "#src/components/ui/button.tsx";
import { ConfirmDialog } from "#src/components/ui/confirm-dialog.tsx";
import { Notice } from "#src/components/ui/notice.tsx";
import { signInErrorMessage } from "./sign-in-messages.ts";
import { CheckingSignIn, StandaloneFrame } from "./checking-sign-in.tsx";
import { chooseOrganization, signInStateQuery, signInUrl, signOut, signOutEverywhere, TandemUnreachableError } from "./standalone-queries.ts";

// Tandem opened at its own address, outside the EHR (ADR 0010, DESIGN.md
// "Standalone mode"): sign in through the service's OAuth flow, pick one of
// the organizations shared, then the same app, authorised by the session
// cookie. A bar above it says who is signed in where, with Switch and Sign out.

type SignedIn = Extract<StandaloneSignInState, { signedIn: true }>;
type SignOutScope = "here" | "everywhere";

/** Whose data the cache holds once an organization is chosen (ADR 0025): the account and that organization. */
const identityOf = (signedIn: SignedIn, organizationId: string): CacheIdentity => ({ organizationId, userId: signedIn.user.email });

/** The current path, to come back to after signing in (never /signin itself). */
function returnPath(): string {
  const path = `${window.location.pathname}${window.location.search}`;
  return window.location.pathname.startsWith("/signin") ? "/" : path;
}

export function StandaloneGate({ children }: { children: (link: StandaloneLink, context: HostContext) => ReactNode }) {
  const state = useQuery(signInStateQuery());
  // Once known, the sign-in stays until an answer says otherwise: a check that fails later never takes the app (and
  // what is typed in it) off the screen.
  if (state.data === undefined) {
    if (state.failureReason instanceof TandemUnreachableError) {
      return (
        <StandaloneFrame>
          <Notice tone="warning" title="Tandem's server is not answering" actions={<Button onClick={() => void state.refetch()}>Try again</Button>}>
            It may be restarting. Tandem opens here by itself as soon as its server answers; there is no need to reload.
          </Notice>
        </StandaloneFrame>
      );
    }
    if (state.isError) {
      return (
        <StandaloneFrame>
          <Notice tone="error" title="Tandem could not check your sign-in" actions={<Button onClick={() => void state.refetch()}>Try again</Button>}>
            {state.error.message}
          </Notice>
        </StandaloneFrame>
      );
    }
    return <CheckingSignIn />;
  }
  if (!state.data.signedIn) return <SignInPage />;
  if (state.data.selectedOrganizationId === null) return <OrganizationPicker signedIn={state.data} />;
  return (
    <SignedInApp signedIn={state.data} organizationId={state.data.selectedOrganizationId}>
      {children}
    </SignedInApp>
  );
}

function SignInPage() {
  const error = signInErrorMessage(new URLSearchParams(window.location.search).get("error"));
  return (
    <StandaloneFrame>
      <h1 className="text-xl font-semibold text-slate-900">Sign in to Tandem</h1>
      {error ? (
        <Notice tone="error" title={error.title}>
          {error.detail}
        </Notice>
      ) : null}
      <p className="text-sm text-slate-700">
        Tandem usually opens inside your clinic&apos;s EHR. Here, outside it, you sign in with your Clinic Data Service account and choose the organizations to share with Tandem.
      </p>
      <a href={signInUrl(returnPath())} className="inline-flex min-h-9 items-center rounded-md bg-brand-700 px-4 text-sm font-medium text-white hover:bg-brand-800">
        Sign in
      </a>
    </StandaloneFrame>
  );
}

function OrganizationPicker({ signedIn, onChosen }: { signedIn: SignedIn; onChosen?: () => void }) {
  const queryClient = useQueryClient();
  const legendId = useId();
  const [choice, setChoice] = useState(signedIn.selectedOrganizationId ?? signedIn.organizations[0]?.id ?? "");
  const choose = useMutation({
    mutationFn: chooseOrganization,
    onSuccess: async (_answer, organizationId) => {
      // From now on the session reads as the organization chosen: the previous one's data goes (even an answer
      // still on its way), and the sign-in's choice is read again.
      switchCacheIdentity(queryClient, identityOf(signedIn, organizationId));
      await invalidateEveryRead(queryClient);
      onChosen?.();
    },
  });
  return (
    <StandaloneFrame>
      <form
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (choice) choose.mutate(choice);
        }}
      >
        <h1 className="text-xl font-semibold text-slate-900">Choose an organization</h1>
        <p className="text-sm text-slate-700">Signed in as <bdi>{signedIn.user.displayName}</bdi>. You shared these organizations with Tandem.</p>
        <fieldset aria-labelledby={legendId} className="space-y-2">
          <legend id={legendId} className="sr-only">
            Organization
          </legend>
          {signedIn.organizations.map((organization) => (
            <label key={organization.id} className="flex cursor-pointer items-center gap-3 rounded-lg border border-slate-300 bg-white p-3 text-sm has-checked:border-brand-700">
              <input type="radio" name="organization" value={organization.id} checked={choice === organization.id} onChange={() => setChoice(organization.id)} className="h-4 w-4 accent-brand-700" />
              <span>
                <span className="block font-medium text-slate-900">{organization.name}</span>
                <span className="block text-slate-700">{organization.facilityCount === 1 ? "1 facility" : `${organization.facilityCount} facilities`}</span>
              </span>
            </label>
          ))}
        </fieldset>
        {choose.error instanceof TandemUnreachableError ? (
          <Notice tone="warning" title="Tandem's server is not answering">
            {choose.error.message}: it may be restarting. Choose Continue again in a moment.
          </Notice>
        ) : choose.isError ? (
          <Notice tone="error" title="That organization cannot be used">
            {choose.error.message}
          </Notice>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={!choice || choose.isPending}>
            {choose.isPending ? "Opening…" : "Continue"}
          </Button>
          <a href={signInUrl(returnPath(), { chooseOrganizationsAgain: true })} className="inline-flex min-h-9 items-center rounded-md px-3 text-sm font-medium text-brand-800 underline">
            Share other organizations
          </a>
        </div>
      </form>
    </StandaloneFrame>
  );
}

function SignedInApp({ signedIn, organizationId, children }: { signedIn: SignedIn; organizationId: string; children: (link: StandaloneLink, context: HostContext) => ReactNode }) {
  const queryClient = useQueryClient();
  // Set before the children render: their queries start in effects that run before this component's own.
  const link = useMemo(() => {
    // Signed out in another tab, revoked from the session list, or ended by the service: the gate asks again and shows the sign-in.
    const created = new StandaloneLink(() => void queryClient.invalidateQueries({ queryKey: queryKeys.standalone.signIn() }));
    setApiBridge(created);
    return created;
  }, []);
  const [switching, setSwitching] = useState(false);
  const [signedOut, setSignedOut] = useState(false);
  const [signingOut, setSigningOut] = useState(false);
  const [signOutFailure, setSignOutFailure] = useState<{ title: string; detail: string } | null>(null);
  /** Sign out was asked for while a form holds text never sent: the question, until answered. */
  const [discardQuestion, setDiscardQuestion] = useState<{ where: SignOutScope; unsent: string[] } | null>(null);
  const organization = signedIn.organizations.find((candidate) => candidate.id === organizationId);
  const identity = identityOf(signedIn, organizationId);
  // Set before the children render: they build their query keys from it. A no-op unless it changed.
  switchCacheIdentity(queryClient, identity);
  /** Signed out: nothing of the user stays in memory or on screen while the browser goes to the sign-in page. */
  const leave = () => {
    switchCacheIdentity(queryClient, null);
    setSignedOut(true);
  };
  /** Text typed goes to Tandem first; the page says signed out only once Tandem's server has ended the sign-in. */
  const endSignIn = (where: SignOutScope, { discardUnsent = false } = {}) => {
    // Marked, not disabled, while it runs: the button keeps the keyboard's focus for a second try.
    if (signingOut) return;
    const unsent = unsentTexts();
    if (unsent.length > 0 && !discardUnsent) {
      setDiscardQuestion({ where, unsent });
      return;
    }
    setSignOutFailure(null);
    setSigningOut(true);
    void finishPendingWrites()
      .then(where === "here" ? signOut : signOutEverywhere)
      .then(leave, (error: unknown) => {
        setSigningOut(false);
        const reason = error instanceof Error ? error.message : "Tandem's server did not answer";
        setSignOutFailure({
          title: where === "here" ? "You are still signed in" : "You are still signed in elsewhere",
          detail: where === "here" ? `${reason}, so your sign-in has not ended. Try Sign out again in a moment.` : reason,
        });
      });
  };
  // Once the views are gone (an editor's "leave the page?" with them): the text typed was stored before signing
  // out, or the user chose to discard it, so nothing of the user stays in the tab for whoever uses it next.
  useEffect(() => {
    if (!signedOut) return;
    forgetEverythingThisTabKeeps();
    window.location.assign("/");
  }, [signedOut]);

  useEffect(() => {
    setApiBridge(link);
    const stop = startLiveEvents(queryClient, link);
    return () => {
      stop();
      setApiBridge(null);
    };
  }, [link, queryClient]);

  const organizationName = organization?.name ?? "Your organization";
  const context = useMemo((): HostContext => ({ organizationName, patientId: null, noteId: null }), [organizationName]);
  if (signedOut) {
    return (
      <StandaloneFrame>
        <p className="text-sm text-slate-700">Signed out.</p>
      </StandaloneFrame>
    );
  }
  if (switching) return <OrganizationPicker signedIn={signedIn} onChosen={() => setSwitching(false)} />;
  return (
    <>
      <div className="flex flex-wrap items-center justify-end gap-x-3 gap-y-1 border-b border-slate-200 bg-slate-50 px-3 py-1 text-xs text-slate-700" data-testid="standalone-bar">
        <span>
          Signed in outside the EHR as <span className="font-medium text-slate-900">{signedIn.user.displayName}</span>
        </span>
        {signedIn.organizations.length > 1 ? (
          <button type="button" className="font-medium text-brand-800 underline" onClick={() => setSwitching(true)}>
            Switch organization
          </button>
        ) : null}
        <button type="button" aria-disabled={signingOut} className="font-medium text-brand-800 underline aria-disabled:text-slate-600 aria-disabled:no-underline" onClick={() => endSignIn("here")}>
          {signingOut ? "Signing out…" : "Sign out"}
        </button>
        <button type="button" aria-disabled={signingOut} data-testid="sign-out-everywhere" className="font-medium text-brand-800 underline aria-disabled:text-slate-600 aria-disabled:no-underline" onClick={() => endSignIn("everywhere")}>
          Sign out everywhere
        </button>
      </div>
      <ConfirmDialog
        open={discardQuestion !== null}
        title="Sign out and discard what you typed?"
        description={`Typed and not yet sent: ${discardQuestion?.unsent.join(" and ") ?? ""}. Signing out removes it from this browser; stay signed in to finish it.`}
        cancelLabel="Stay signed in"
        confirmLabel="Sign out and discard"
        onCancel={() => setDiscardQuestion(null)}
        onConfirm={() => {
          const where = discardQuestion?.where ?? "here";
          setDiscardQuestion(null);
          endSignIn(where, { discardUnsent: true });
        }}
      />
      {signOutFailure ? (
        <div className="px-3 pt-2">
          <Notice tone="error" title={signOutFailure.title}>
            {signOutFailure.detail}
          </Notice>
        </div>
      ) : null}
      {/* Another organization remounts the app: no view keeps what it held for the previous one. */}
      <Fragment key={identityKey(identity)}>{children(link, context)}</Fragment>
    </>
  );
}
