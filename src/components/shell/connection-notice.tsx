import type { BridgeStatus } from "#src/bridge/bridge-provider.tsx";
import { PagePlaceholder } from "../ui/skeleton.tsx";
import { Notice } from "../ui/notice.tsx";

/** What the app shows before (or instead of) a connection to its EHR host. */
/** Outside a frame the standalone sign-in shows instead (src/features/standalone/). */
export function ConnectionNotice({ status }: { status: Exclude<BridgeStatus, { kind: "connected" | "standalone" }> }) {
  const frame = (children: React.ReactNode) => <main className="mx-auto max-w-xl p-4">{children}</main>;
  switch (status.kind) {
    case "connecting":
      return frame(<PagePlaceholder label="Connecting to the EHR…" />);
    case "server-unreachable":
      return frame(
        <Notice tone="warning" title="Tandem's server is not answering">
          It may be restarting. Tandem opens here by itself as soon as its server answers; there is no need to reload.
        </Notice>,
      );
    case "origin-not-allowed":
      return frame(
        <Notice tone="error" title="This page is not allowed to host Tandem">
          Tandem was opened inside {status.origin ?? "a page whose address could not be read"}, which is not one of the EHRs configured for it. Open Tandem from your clinic's EHR.
        </Notice>,
      );
    case "failed":
      return frame(
        <Notice tone="error" title="Tandem could not connect to the EHR">
          {status.message}. Reload the page in the EHR to try again.
        </Notice>,
      );
  }
}
