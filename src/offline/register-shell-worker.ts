import shellWorkerUrl from "./shell-worker.ts?worker&url";

// The shell worker (shell-worker.ts), registered for the whole app in a
// build only (the dev server's modules are not a shell to keep). Its script
// lives under /assets/: the BFF allows it the scope "/" (Service-Worker-Allowed).
// A browser that refuses it (third-party storage blocked in the EHR's frame)
// runs the app as before, without the kept shell.

export function registerShellWorker(): void {
  if (!import.meta.env.PROD || !("serviceWorker" in navigator)) return;
  const register = () => {
    navigator.serviceWorker.register(shellWorkerUrl, { scope: "/" }).catch((error: unknown) => {
      console.warn("Tandem's shell worker was not registered: a reload while Tandem's server is down shows the browser's error page", error);
    });
  };
  // After the page's own loading: the worker's install fetches every file of the build.
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}
