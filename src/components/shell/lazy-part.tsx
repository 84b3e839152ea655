import { Component, lazy, Suspense, type ComponentType, type ReactNode } from "react";
import { Button } from "#src/components/ui/button.tsx";
import { Notice } from "#src/components/ui/notice.tsx";

// A part of the app whose code loads only when it is first drawn (DESIGN.md's
// bundle budget). Its code can fail to arrive: Tandem's server restarting, or
// a newer version of Tandem deployed since the page loaded (the old chunk is
// gone). Then the part says so, with a reload, in its own place; the rest of
// the app stays as it is instead of going blank. Any other error in the part
// is not a loading failure and goes on to whatever catches it otherwise.

/** The part's code could not be fetched. */
class PartLoadError extends Error {
  override name = "PartLoadError";
}

interface LazyPartOptions {
  /** Shown while the code loads (nothing by default). */
  fallback?: ReactNode;
  /** Where the notice of a failed load sits, for a part that has a place of its own (the holds bar's, at the foot of the frame). */
  failureClassName?: string;
}

export function lazyPart<Props extends object>(what: string, load: () => Promise<ComponentType<Props>>, { fallback = null, failureClassName }: LazyPartOptions = {}): ComponentType<Props> {
  const Lazy = lazy(() =>
    load().then(
      (component) => ({ default: component }),
      (error: unknown) => {
        throw new PartLoadError(`The code of ${what} could not be loaded`, { cause: error });
      },
    ),
  );
  return function LazyPart(props: Props) {
    return (
      <PartLoadBoundary what={what} className={failureClassName}>
        <Suspense fallback={fallback}>
          <Lazy {...props} />
        </Suspense>
      </PartLoadBoundary>
    );
  };
}

class PartLoadBoundary extends Component<{ what: string; className: string | undefined; children: ReactNode }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override render() {
    const { error } = this.state;
    if (error === null) return this.props.children;
    if (!(error instanceof PartLoadError)) throw error;
    return (
      <div className={this.props.className}>
        <Notice tone="error" title={`Tandem could not load ${this.props.what}`} actions={<Button onClick={() => window.location.reload()}>Reload Tandem</Button>}>
          Tandem&apos;s server did not send this part of the app: it may be restarting, or a newer version of Tandem is out. Reloading fetches it again.
        </Notice>
      </div>
    );
  }
}
