import { Component, lazy, Suspense, type ComponentType, type ReactNode } from "react";
import { Button } from "#src/components/ui/button.tsx";
import { Notice } from "#src/components/ui/notice.tsx";
import { onBffAnswered } from "#src/api/bff-reachability.ts";

// A part of the app whose code loads only when it is first drawn (DESIGN.md's
// bundle budget). Its code can fail to arrive: Tandem's server restarting, or
// a newer version of Tandem deployed since the page loaded (the old chunk is
// gone). Then the part says so, with a reload, in its own place, and is
// fetched again by itself once the server answers; the rest of the app stays
// as it is instead of going blank. Any other error in the part
// is not a loading failure and goes on to whatever catches it otherwise.

/** Reloads the frame: what a part or a view whose code did not arrive offers (text typed is kept from the keystroke). */
export function ReloadTandemButton() {
  return <Button onClick={() => window.location.reload()}>Reload Tandem</Button>;
}

/** Why a part's or a view's code is missing, for its notice. */
export const CODE_NOT_SENT = "Tandem's server did not send this part of the app: it may be restarting, or a newer version of Tandem is out.";

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

/** Times a part's code is fetched again by itself, each once Tandem's server has answered since the last failure. */
const AUTOMATIC_RETRIES = 2;

export function lazyPart<Props extends object>(what: string, load: () => Promise<ComponentType<Props>>, { fallback = null, failureClassName }: LazyPartOptions = {}): ComponentType<Props> {
  // React.lazy keeps a failed load for good: a new try is a new lazy component.
  const loadPart = () =>
    lazy(() =>
      load().then(
        (component) => ({ default: component }),
        (error: unknown) => {
          throw new PartLoadError(`The code of ${what} could not be loaded`, { cause: error });
        },
      ),
    );
  let Lazy = loadPart();
  const loadAgain = () => {
    Lazy = loadPart();
  };
  return function LazyPart(props: Props) {
    return (
      <PartLoadBoundary what={what} className={failureClassName} loadAgain={loadAgain}>
        {() => (
          <Suspense fallback={fallback}>
            <Lazy {...props} />
          </Suspense>
        )}
      </PartLoadBoundary>
    );
  };
}

interface PartLoadBoundaryProps {
  what: string;
  className: string | undefined;
  loadAgain: () => void;
  /** Drawn afresh on each try: after `loadAgain` it draws the new lazy component. */
  children: () => ReactNode;
}

class PartLoadBoundary extends Component<PartLoadBoundaryProps, { error: Error | null; retries: number }> {
  override state: { error: Error | null; retries: number } = { error: null, retries: 0 };
  private stopWaiting: (() => void) | null = null;

  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidUpdate() {
    // A server restarting (a deploy) sends nothing for a moment: once it answers any call again, the part is fetched again.
    if (this.state.error instanceof PartLoadError && this.state.retries < AUTOMATIC_RETRIES && this.stopWaiting === null) {
      this.stopWaiting = onBffAnswered(() => {
        this.stopListening();
        this.props.loadAgain();
        this.setState(({ retries }) => ({ error: null, retries: retries + 1 }));
      });
    }
  }

  override componentWillUnmount() {
    this.stopListening();
  }

  private stopListening() {
    this.stopWaiting?.();
    this.stopWaiting = null;
  }

  override render() {
    const { error } = this.state;
    if (error === null) return this.props.children();
    if (!(error instanceof PartLoadError)) throw error;
    return (
      <div className={this.props.className}>
        <Notice tone="error" title={`Tandem could not load ${this.props.what}`} actions={<ReloadTandemButton />}>
          {CODE_NOT_SENT} It is fetched again once the server answers; reloading fetches it now.
        </Notice>
      </div>
    );
  }
}
