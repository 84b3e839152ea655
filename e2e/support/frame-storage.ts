// This Chromium (156) blocks third-party storage by default (its third-party
// cookie phase-out): inside the EHR's frame, a cross-site one, sessionStorage
// throws "Access is denied" and a service worker is refused. What a tab keeps
// for itself is only possible where the browser grants the frame its storage
// (partitioned, as Firefox and Safari do, or with third-party cookies
// allowed): the specs of it run Chromium that way, with `test.use(FRAME_STORAGE_GRANTED)`.
export const FRAME_STORAGE_GRANTED = {
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic", "--disable-gpu", "--disable-features=TrackingProtection3pcd"],
  },
};
