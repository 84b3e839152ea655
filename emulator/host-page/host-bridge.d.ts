// Types of `host-bridge.js` (plain JavaScript, served to the browser as-is).
import type { AppToHostMessage, BookingRequest, HostContext, HostToAppMessage } from "#contract/bridge/messages.ts";

export type Parsed<T> = { ok: true; message: T } | { ok: false; error: string };

export function parseHostContext(value: unknown): HostContext | null;
export function parseBookingRequest(value: unknown): BookingRequest | null;
export function parseAppToHostMessage(data: unknown): Parsed<AppToHostMessage>;
export function parseHostToAppMessage(data: unknown): Parsed<HostToAppMessage>;
